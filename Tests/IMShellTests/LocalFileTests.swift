import Foundation
import Testing

/// What imsh writes under its data directory: never through a symlink, files 0600 in
/// directories 0700, and a data directory others may write to is refused.
@Suite(.timeLimit(.minutes(1)))
struct LocalFileTests {
    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func aSymlinkedLockIsNotFollowed() async throws {
        let sandbox = Sandbox()
        let victim = sandbox.write("keep me\n", to: "victim.txt")
        mkdir(sandbox.data, 0o700)
        symlink(victim, "\(sandbox.data)/lock")
        let run = try await sandbox.json("connect alice-phone")
        #expect(run.status != 0)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        #expect(run.stdout.contains("\(sandbox.data)/lock"), "\(run.stdout)")
    }

    @Test func aSymlinkedAccountDirectoryIsNotWrittenThrough() async throws {
        let sandbox = Sandbox()
        let outside = "\(sandbox.root)/outside"
        mkdir(sandbox.data, 0o700)
        mkdir(outside, 0o700)
        symlink(outside, "\(sandbox.data)/dev")
        let run = try await sandbox.json("connect alice-phone")
        #expect(run.status != 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }

    @Test func databasesArePrivateWhateverTheUmask() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect alice-phone")
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let files = FileManager.default.enumerator(atPath: sandbox.data)?.allObjects as? [String] ?? []
        let databases = files.filter { $0.hasSuffix(".sqlite") }
        #expect(!databases.isEmpty)
        for file in files {
            let path = "\(sandbox.data)/\(file)"
            var status = stat()
            lstat(path, &status)
            let expected: mode_t = status.st_mode & S_IFMT == S_IFDIR ? 0o700 : 0o600
            #expect(Self.mode(path) == expected, "\(file) is \(String(Self.mode(path), radix: 8))")
        }
    }

    // Giving a directory to another user takes root (CI runs as root).
    @Test(.enabled(if: geteuid() == 0)) func aDataDirectoryOwnedByAnotherUserIsRefused() async throws {
        let sandbox = Sandbox()
        mkdir(sandbox.data, 0o700)
        let other: uid_t = 65534
        try #require(chown(sandbox.data, other, getegid()) == 0)
        let run = try await sandbox.json("connect alice-phone")
        #expect(run.status != 0)
        #expect(run.stdout.contains("the data directory \(sandbox.data) is owned by another user (uid \(other))"), "\(run.stdout)")
    }

    @Test func aDataDirectoryOthersMayWriteIsRefusedWithTheFix() async throws {
        let sandbox = Sandbox()
        mkdir(sandbox.data, 0o700)
        chmod(sandbox.data, 0o777)
        let run = try await sandbox.json("connect alice-phone")
        #expect(run.status != 0)
        #expect(run.stdout.contains("writable by others (mode 777); fix it with: chmod go-w \(sandbox.data)"), "\(run.stdout)")
        #expect(!FileManager.default.fileExists(atPath: "\(sandbox.data)/lock"))
    }
}
