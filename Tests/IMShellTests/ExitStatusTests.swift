import IMJSON
import Testing

/// Exit statuses 0 to 3 of the binary, and the shape of `--json` output.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ExitStatusTests {
    @Test func zeroWhenEveryCommandSucceeds() async throws {
        let run = try await Sandbox().imsh(["-c", "status; use prod; accounts"])
        #expect(run.status == 0 && run.stderr.isEmpty)
    }

    @Test func oneWhenACommandFailsAndTheRestStillRun() async throws {
        let run = try await Sandbox().json("connect alice-phone; wait alice-phone kickedOfflineByOtherClient --timeout 0.2; status")
        #expect(run.status == 1)
        #expect(run.results().map { $0.string("command") } == ["connect", "wait", "status"])
        let wait = try #require(run.result("wait"))
        #expect(wait["ok"] == false && wait["error"] == "still connected (0) after 0.2 s, not kickedOfflineByOtherClient (6)")
    }

    @Test func twoForUsageErrorsAndNothingRuns() async throws {
        let sandbox = Sandbox()
        let typo = try await sandbox.imsh(["-c", "connect all\nconect bob-phone"])
        #expect(typo.status == 2)
        #expect(typo.stdout.isEmpty, "connect all did not run")
        #expect(typo.stderr == "error: line 2: unknown command 'conect' (did you mean connect?); type 'help' for the list\n")
        let json = try await sandbox.json("status; block bob-phone forever")
        #expect(json.status == 2)
        #expect(json.results().count == 1)
        #expect(json.results().first?["usage"] == true && json.results().first?["command"] == "block")
        let option = try await sandbox.imsh(["--bogus"])
        #expect(option.status == 2 && option.stderr == "imsh: unknown option '--bogus' (see 'imsh --help')\n")
        let both = try await sandbox.imsh(["-c", "status", "script.imsh"])
        #expect(both.status == 2 && both.stderr == "imsh: give -c COMMANDS or a SCRIPT file, not both\n")
        let missing = try await sandbox.imsh(["no-such-script.imsh"])
        #expect(missing.status == 2 && missing.stderr == "imsh: cannot read the script no-such-script.imsh: No such file or directory\n")
        let quote = try await sandbox.imsh(["-c", "send a b \"open"])
        #expect(quote.status == 2 && quote.stderr == "error: line 1: the \" opened at column 10 is never closed; add a closing \"\n")
    }

    @Test func twoFromStandardInputStopsAtTheBadLine() async throws {
        let run = try await Sandbox().imsh(["--json"], stdin: "status\nuse\nstatus\n")
        #expect(run.status == 2)
        #expect(run.results().map { $0.string("command") } == ["status", "use"])
        #expect(run.results().last?["error"] == "line 2: use: missing arguments; usage: use PROFILE")
    }

    @Test func helpAndVersionExitZero() async throws {
        let sandbox = Sandbox()
        let help = try await sandbox.imsh(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("imsh: drive many instant-messaging accounts at once over MQTT 5\n"))
        #expect(help.stdout.contains("exit status: 0 every command succeeded, 1 a command failed, 2 usage error,"))
        let version = try await sandbox.imsh(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("imsh 0.1.0 (commit ") && version.stdout.hasSuffix(")\n"))
    }

    @Test func threeWhenAProfileHasErrorsWhileTheOthersStillWork() async throws {
        let sandbox = Sandbox()
        sandbox.write("{\n  \"appKey\": \"k\",\n  \"server\": \"embedded\",\n  \"acounts\": {}\n}\n", to: "profiles/broken.json")
        let run = try await sandbox.json("accounts dev; use broken")
        #expect(run.status == 3)
        #expect(run.stderr.contains("imsh: \(sandbox.profiles)/broken.json:4:3: error: acounts: unknown field (did you mean 'accounts'?)"))
        let diagnostic = try #require(run.jsonObjects().first)
        #expect(diagnostic["type"] == "diagnostic" && diagnostic["line"] == 4 && diagnostic["column"] == 3 && diagnostic["field"] == "acounts")
        #expect(run.result("accounts")?["ok"] == true, "dev still loads")
        let use = try #require(run.result("use"))
        #expect(use["profileError"] == true && use["error"] == "profile broken did not load; fix the errors in its file (see 'profiles')")
        let profiles = try await sandbox.json("profiles")
        #expect(profiles.status == 3)
        #expect(profiles.result("profiles")?["failed"] == ["broken"])
        #expect(profiles.result("profiles")?.objects("diagnostics").map { $0.string("reason") } == ["unknown field (did you mean 'accounts'?)"])
    }

    @Test func threeForAProfileThatCannotBeActiveOrADirectoryThatCannotBeRead() async throws {
        let sandbox = Sandbox()
        let wanted = try await sandbox.imsh(["--profile", "staging", "-c", "status"])
        #expect(wanted.status == 3 && wanted.stderr.contains("imsh: --profile staging: the profile is not in \(sandbox.profiles)"))
        let missing = try await ImshProcess.run(["--profiles", "\(sandbox.root)/nowhere", "-c", "help"], home: sandbox.home)
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("nowhere: error: cannot read the profile directory: No such file or directory"))
        // A misspelt profile leaves none active: nothing runs against the first one instead.
        let misspelt = try await sandbox.json("status", ["-p", "prdo"])
        #expect(misspelt.status == 3 && misspelt.stderr.contains("imsh: --profile prdo: the profile is not in"))
        #expect(misspelt.result("status")?.accounts.isEmpty == true, "the status of another profile's accounts")
        let chosen = try await sandbox.json("status", ["-p", "prod"])
        #expect(chosen.status == 0 && chosen.result("status")?.accounts.first?["account"] == "prod/carol-phone")
    }

    @Test func everyJSONLineIsOneTypedObject() async throws {
        let run = try await Sandbox().json("connect bob-phone; status; send bob-phone alice hi; history bob-phone; log; bogus-free; disconnect all", timeout: .seconds(60))
        // The typo makes the script a usage error: nothing runs, one result says why.
        #expect(run.status == 2 && run.results().count == 1)
        let full = try await Sandbox().json("connect bob-phone; status; send bob-phone alice hi; history bob-phone; log; sleep 0; disconnect all")
        #expect(full.status == 0)
        let objects = full.jsonObjects()
        #expect(objects.count == full.stdoutLines.count)
        for object in objects {
            switch object.string("type") {
            case "result":
                #expect(object.keys.starts(with: ["type", "command", "ok"]))
                #expect(object["ok"] == true || object.string("error") != nil)
            case "event":
                #expect(object.keys.starts(with: ["type", "event", "account"]))
                if object["event"] == "status" {
                    #expect(object.string("status") != nil && object["code"]?.integerValue != nil && object["at"]?.integerValue != nil)
                }
            default:
                Issue.record("unexpected object \(object)")
            }
        }
        #expect(full.results().map { $0.string("command") } == ["connect", "status", "send", "history", "log", "sleep", "disconnect"])
    }
}
