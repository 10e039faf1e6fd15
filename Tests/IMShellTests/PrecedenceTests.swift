import Foundation
import IMJSON
import Testing

/// Where the binary reads profiles and keeps data: flag, then environment, then the current
/// directory, then the XDG default; and what it says about the files it reads.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PrecedenceTests {
    private let minimal = #"{ "appKey": "k", "server": "embedded" }"#

    /// A sandbox with a profile directory at each place imsh may look, each with one profile
    /// named after the place.
    private func everywhere() -> Sandbox {
        let sandbox = Sandbox(shipped: false)
        sandbox.write(minimal, to: "flag/flag.json")
        sandbox.write(minimal, to: "env/env.json")
        sandbox.write(minimal, to: "work/profiles/cwd.json")
        sandbox.write(minimal, to: "xdg/imsh/profiles/xdg.json")
        sandbox.write(minimal, to: ".config/imsh/profiles/home.json")
        try! FileManager.default.createDirectory(atPath: "\(sandbox.root)/elsewhere", withIntermediateDirectories: true)
        return sandbox
    }

    /// The `profiles` result of imsh run with `arguments` and `environment` in `directory`.
    private func profiles(_ sandbox: Sandbox, _ arguments: [String] = [], in directory: String, _ environment: [String: String] = [:]) async throws -> JSONObject {
        let run = try await ImshProcess.run(
            arguments + ["--json", "-c", "profiles"], home: sandbox.home, directory: "\(sandbox.root)/\(directory)", environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(run.result("profiles"))
    }

    private func source(_ report: JSONObject) -> (String?, String?, [String?]) {
        let directory = report["profileDirectory"]?.objectValue
        return (directory?["path"]?.stringValue, directory?["source"]?.stringValue, report.objects("profiles").map { $0.string("name") })
    }

    @Test func theFlagWinsOverEverything() async throws {
        let sandbox = everywhere()
        let report = try await profiles(sandbox, ["--profiles", "\(sandbox.root)/flag"], in: "work", ["IMSH_PROFILES": "\(sandbox.root)/env", "XDG_CONFIG_HOME": "\(sandbox.root)/xdg"])
        #expect(source(report) == ("\(sandbox.root)/flag", "--profiles", ["flag"]))
    }

    @Test func theEnvironmentWinsOverTheCurrentDirectory() async throws {
        let sandbox = everywhere()
        let report = try await profiles(sandbox, in: "work", ["IMSH_PROFILES": "\(sandbox.root)/env", "XDG_CONFIG_HOME": "\(sandbox.root)/xdg"])
        #expect(source(report) == ("\(sandbox.root)/env", "$IMSH_PROFILES", ["env"]))
    }

    @Test func theCurrentDirectoryWinsOverTheDefault() async throws {
        let sandbox = everywhere()
        let report = try await profiles(sandbox, in: "work", ["IMSH_PROFILES": "", "XDG_CONFIG_HOME": "\(sandbox.root)/xdg"])
        #expect(source(report) == ("./profiles", "current directory", ["cwd"]), "an empty IMSH_PROFILES counts as unset")
    }

    @Test func theXDGConfigDirectoryThenHome() async throws {
        let sandbox = everywhere()
        let xdg = try await profiles(sandbox, in: "elsewhere", ["XDG_CONFIG_HOME": "\(sandbox.root)/xdg"])
        #expect(source(xdg) == ("\(sandbox.root)/xdg/imsh/profiles", "$XDG_CONFIG_HOME", ["xdg"]))
        let home = try await profiles(sandbox, in: "elsewhere", ["XDG_CONFIG_HOME": "relative/ignored"])
        #expect(source(home) == ("\(sandbox.root)/.config/imsh/profiles", "default", ["home"]))
    }

    @Test func aMissingDefaultDirectoryIsANoteNotAnError() async throws {
        let sandbox = Sandbox(shipped: false)
        try FileManager.default.removeItem(atPath: sandbox.profiles)
        let run = try await ImshProcess.run(["--json", "-c", "profiles"], home: sandbox.home)
        #expect(run.status == 0 && run.stderr.isEmpty)
        let note = run.result("profiles")?["notes"]
        #expect(note == [.string("no profiles yet: \(sandbox.root)/.config/imsh/profiles does not exist; create it, or give --profiles DIR (see imsh-profile(5))")])
    }

    @Test func theDataDirectory() async throws {
        let sandbox = everywhere()
        func data(_ arguments: [String], _ environment: [String: String]) async throws -> JSONValue? {
            try await profiles(sandbox, arguments, in: "work", environment)["dataDirectory"]
        }
        let flag = try await data(["--data", "\(sandbox.root)/d"], ["XDG_STATE_HOME": "\(sandbox.root)/state"])
        #expect(flag == ["path": .string("\(sandbox.root)/d"), "source": "--data"])
        let xdg = try await data([], ["XDG_STATE_HOME": "\(sandbox.root)/state"])
        #expect(xdg == ["path": .string("\(sandbox.root)/state/imsh"), "source": "$XDG_STATE_HOME"])
        let home = try await data([], [:])
        #expect(home == ["path": .string("\(sandbox.root)/.local/state/imsh"), "source": "default"])
    }

    @Test func inTheRepositoryItReadsTheShippedProfiles() async throws {
        let sandbox = Sandbox(shipped: false)
        let repository = (Sandbox.shippedProfiles as NSString).deletingLastPathComponent
        let run = try await ImshProcess.run(["--data", sandbox.data, "--json", "-c", "profiles"], home: sandbox.home, directory: repository)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(run.result("profiles"))
        #expect(source(report) == ("./profiles", "current directory", ["dev", "prod"]))
    }

    @Test func secretsReadableByOthersAreWarnedAboutAndStillLoad() async throws {
        let sandbox = Sandbox(shipped: false)
        let path = sandbox.write("""
            {
              "appKey": "k",
              "server": "mqtt://127.0.0.1:1",
              "accounts": { "a": { "userId": "a", "token": "literal-token-value" } }
            }
            """, to: "profiles/remote.json", mode: 0o644)
        let run = try await sandbox.imsh(["-c", "accounts"])
        #expect(run.status == 0, "a warning does not fail")
        #expect(run.stderr == "imsh: \(path): warning: holds secrets (accounts.a.token) but is readable by group or others (mode 0644); run chmod 600 \(path)\n")
        #expect(run.stdout.contains("token lite…") && !run.stdout.contains("literal-token-value"), "the token redacted")
        chmod(path, 0o600)
        let quiet = try await sandbox.imsh(["-c", "accounts"])
        #expect(quiet.stderr.isEmpty)
    }
}
