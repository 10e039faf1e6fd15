import Foundation
import IMProfiles
import Testing

/// Loading files and directories: bad files among good ones, permissions, files that are not profiles.
struct ProfileLoaderTests {
    static let good = #"{"appKey": "k", "server": "mqtt://h", "accounts": {"a": {"tokenCommand": "t"}}}"#
    static let tokenBearing = #"{"appKey": "k", "server": "mqtt://h", "accounts": {"a": {"token": "secret-token-value"}}}"#

    @Test func oneBadProfileDoesNotStopTheOthers() {
        let fixture = ProfileFixture()
        fixture.write(Self.good, to: "a.json")
        fixture.write(#"{"appKey": "k", "server": "mqtt://h", "acounts": {}}"#, to: "b.json")
        fixture.write(Self.good, to: "c.json")
        fixture.write(Self.good, to: "a-b.json")
        fixture.write("not a profile", to: ".hidden.json")
        fixture.write("not a profile", to: "notes.txt")
        fixture.makeDirectory("d.json")
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(set.directory == fixture.path)
        // Sorted by profile name, not file name ("a-b.json" sorts before "a.json").
        #expect(set.profiles.map(\.name) == ["a", "a-b", "c"])
        #expect(set.failed == ["b"])
        #expect(set.hasErrors)
        #expect(fixture.relative(set.diagnostics.map(\.description)) == [
            "b.json:1:39: error: acounts: unknown field (did you mean 'accounts'?)",
        ])
    }

    @Test func reloadingAFileReplacesItsProfileAndDiagnostics() throws {
        let fixture = ProfileFixture()
        fixture.write(Self.good, to: "a.json")
        fixture.write(#"{"appKey": "k"}"#, to: "b.json")
        var set = ProfileLoader.load(directory: fixture.path)
        #expect(set.failed == ["b"] && set.diagnostics.count == 1)
        fixture.write(Self.good, to: "b.json")
        set.merge(ProfileLoader.load(file: fixture.file("b.json")))
        #expect(set.profiles.map(\.name) == ["a", "b"])
        #expect(set.failed == [] && set.diagnostics == [])
        fixture.write("{", to: "a.json")
        set.merge(ProfileLoader.load(file: fixture.file("a.json")))
        #expect(set.profiles.map(\.name) == ["b"] && set.failed == ["a"] && set.diagnostics.count == 1)
    }

    @Test func missingDirectoryIsOneError() {
        let fixture = ProfileFixture()
        let set = ProfileLoader.load(directory: fixture.file("none"))
        #expect(set.profiles.isEmpty)
        #expect(fixture.relative(set.diagnostics.map(\.description)) == [
            "none: error: cannot read the profile directory: No such file or directory",
        ])
    }

    @Test func fileNameMustBeAProfileName() {
        let fixture = ProfileFixture()
        fixture.write(Self.good, to: "bad name.json")
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(set.profiles.isEmpty && set.failed == ["bad name"])
        #expect(fixture.relative(set.diagnostics.map(\.description)) == [
            "bad name.json: error: 'bad name' cannot be a profile name (the file name without .json); names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'",
        ])
    }

    @Test func aFileNamedLikeAnOptionIsReportedAndSkippedWhileTheOthersLoad() {
        let fixture = ProfileFixture()
        fixture.write(Self.good, to: "-rf.json")
        fixture.write(Self.good, to: "ok.json")
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(set.profiles.map(\.name) == ["ok"] && set.failed == ["-rf"])
        #expect(fixture.relative(set.diagnostics.map(\.description)) == [
            "-rf.json: error: '-rf' cannot be a profile name (the file name without .json); names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'",
        ])
    }

    @Test func tokenInAFileOthersCanReadIsWarnedAbout() throws {
        let fixture = ProfileFixture()
        let (profile, problems) = fixture.profile(Self.tokenBearing, mode: 0o644)
        #expect(profile != nil)
        #expect(problems == [
            "dev.json: warning: holds secrets (accounts.a.token) but is readable by group or others (mode 0644); run chmod 600 dev.json",
        ])
        let secret = #"{"appKey": "k", "server": "mqtt://h", "api": "http://h", "appSecret": "s", "accounts": {"a": {"userId": "u"}}}"#
        #expect(fixture.diagnostics(secret, mode: 0o640) == [
            "dev.json: warning: holds secrets (appSecret) but is readable by group or others (mode 0640); run chmod 600 dev.json",
        ])
    }

    @Test func noWarningForPrivateFilesOrFilesWithoutSecrets() {
        let fixture = ProfileFixture()
        #expect(fixture.diagnostics(Self.tokenBearing, mode: 0o600) == [])
        #expect(fixture.diagnostics(Self.tokenBearing, mode: 0o400) == [])
        #expect(fixture.diagnostics(Self.good, mode: 0o644) == [])
        // The app secret of an embedded server opens only the server imsh runs itself.
        let embedded = #"{"appKey": "k", "server": "embedded", "appSecret": "s", "accounts": {"a": {"userId": "u"}}}"#
        #expect(fixture.diagnostics(embedded, mode: 0o644) == [])
    }

    @Test func proxyPasswordIsASecretEvenWithAnEmbeddedServer() {
        let fixture = ProfileFixture()
        let text = #"{"appKey": "k", "server": "embedded", "appSecret": "s", "accounts": {"a": {"userId": "u", "proxy": "socks5://u:p@h:1"}}}"#
        #expect(fixture.diagnostics(text, mode: 0o604) == [
            "dev.json: warning: holds secrets (accounts.a.proxy) but is readable by group or others (mode 0604); run chmod 600 dev.json",
        ])
    }

    @Test func notJSONIsAPositionedError() {
        let fixture = ProfileFixture()
        #expect(fixture.diagnostics("{\"appKey\": \"k\",\n  \"server\": }") == [
            "dev.json:2:13: error: not valid JSON: expected a value, found '}'",
        ])
        #expect(fixture.diagnostics("") == ["dev.json:1:1: error: not valid JSON: expected a value, found end of file"])
        let garbage = fixture.write([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x00], to: "garbage.json")
        let set = ProfileLoader.load(file: garbage)
        #expect(set.profiles.isEmpty && set.failed == ["garbage"])
        #expect(set.diagnostics.count == 1 && set.diagnostics[0].location != nil && set.diagnostics[0].reason.hasPrefix("not valid JSON: "))
    }

    @Test func hugeFileIsRefusedUnread() {
        let fixture = ProfileFixture()
        let padded = Array(Self.good.utf8) + Array(repeating: UInt8(ascii: " "), count: ProfileLoader.maximumFileSize - Self.good.utf8.count)
        fixture.write(padded, to: "big.json")
        #expect(ProfileLoader.load(file: fixture.file("big.json")).profiles.count == 1)
        fixture.write(padded + [UInt8(ascii: " ")], to: "huge.json")
        let set = ProfileLoader.load(file: fixture.file("huge.json"))
        #expect(set.profiles.isEmpty)
        #expect(fixture.relative(set.diagnostics.map(\.description)) == [
            "huge.json: error: larger than 1048576 bytes (1024 KiB), the most a profile may be; is this the right file?",
        ])
    }

    @Test func fifoIsRefusedWithoutBlocking() {
        let fixture = ProfileFixture()
        #expect(mkfifo(fixture.file("pipe.json"), 0o600) == 0)
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(fixture.relative(set.diagnostics.map(\.description)) == ["pipe.json: error: not a regular file"])
    }

    @Test func danglingLinkIsReported() {
        let fixture = ProfileFixture()
        #expect(symlink(fixture.file("gone"), fixture.file("link.json")) == 0)
        let set = ProfileLoader.load(directory: fixture.path)
        #expect(fixture.relative(set.diagnostics.map(\.description)) == ["link.json: error: cannot open: No such file or directory"])
    }
}
