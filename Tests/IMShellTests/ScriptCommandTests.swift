import IMJSON
import Testing

/// Every command, run by the real imsh binary in script mode on copies of the shipped profiles.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ScriptCommandTests {
    @Test func helpProfilesUseAndAccounts() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("help; help connect; profiles; use prod; accounts; accounts dev; status")
        #expect(run.status == 0, "\(run.stderr)")
        let results = run.results()
        #expect(results.map { $0.string("command") } == ["help", "help", "profiles", "use", "accounts", "accounts", "status"])
        #expect(results.allSatisfy { $0["ok"] == true })
        #expect(results[0].objects("commands").count == 29)
        #expect(results[1].string("usage") == "connect ACCOUNT...|all [--timeout S] [--kick-enable] [--no-wait]")
        let profiles = results[2]
        #expect(profiles["profileDirectory"] == ["path": .string(sandbox.profiles), "source": "--profiles"])
        #expect(profiles["dataDirectory"] == ["path": .string(sandbox.data), "source": "--data"])
        #expect(profiles.objects("profiles").map { $0.string("name") } == ["dev", "prod"])
        #expect(profiles.objects("profiles").map { $0.string("appSecret") } == ["imsh…", "imsh…"], "secrets redacted")
        #expect(profiles["active"] == "dev" && profiles.objects("diagnostics").isEmpty)
        #expect(results[3]["profile"] == "prod")
        #expect(results[4]["profile"] == "prod")
        #expect(results[4].accounts.map { $0.string("account") } == ["prod/carol-phone", "prod/carol-web", "prod/dave-pc"])
        #expect(results[4].accounts.map { $0.string("platform") } == ["mobile", "web", "pc"])
        #expect(results[4].accounts.map { $0["reconnectKickEnable"] } == [true, true, true])
        #expect(results[4].accounts[2]["heartbeat"] == 60)
        #expect(results[5].accounts.map { $0.string("account") } == ["dev/alice-phone", "dev/alice-tablet", "dev/alice-laptop", "dev/bob-phone"])
        #expect(results[5].accounts.allSatisfy { $0["token"] == "server API" && $0["session"] == false && $0["status"] == "unknown" })
        #expect(results[6].accounts.map { $0.string("account") } == ["prod/carol-phone", "prod/carol-web", "prod/dave-pc"], "status follows use")
        #expect(!run.stdout.contains("imsh-dev-secret") && !run.stderr.contains("imsh-dev-secret"))
    }

    /// The acceptance check: `connect all` logs in every sample account, and of
    /// alice's two mobile devices the later login kicks the earlier (6, 31010, as an event).
    @Test func connectAllConnectsTheSampleAccountsAndAlicesPhonesKickEachOther() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect all; sleep 1; status")
        #expect(run.status == 0, "\(run.stderr)")
        let connect = try #require(run.result("connect"))
        #expect(connect["ok"] == true)
        #expect(connect.accounts.map { $0.string("account") } == ["dev/alice-phone", "dev/alice-tablet", "dev/alice-laptop", "dev/bob-phone"])
        #expect(connect.accounts.allSatisfy { $0["ok"] == true && $0.string("userId") != nil })
        let kicks = run.statusEvents().filter { $0["status"] == "kickedOfflineByOtherClient" }
        #expect(kicks.count == 1, "exactly one of alice's mobiles is kicked")
        let kicked = try #require(kicks.first)
        #expect(["dev/alice-phone", "dev/alice-tablet"].contains(kicked.string("account")))
        #expect(kicked["code"] == 6 && kicked["errorCode"] == 31010 && kicked["errorName"] == "RC_CONN_KICKED_BY_OTHER_CLIENT")
        #expect(kicked["detail"] == "other-device-login")
        let status = try #require(run.result("status")).accounts
        let byAccount = Dictionary(uniqueKeysWithValues: status.map { ($0.string("account") ?? "", $0.string("status") ?? "") })
        #expect(byAccount["dev/alice-laptop"] == "connected" && byAccount["dev/bob-phone"] == "connected", "other classes and users stay")
        let survivor = kicked.string("account") == "dev/alice-phone" ? "dev/alice-tablet" : "dev/alice-phone"
        #expect(byAccount[survivor] == "connected" && byAccount[kicked.string("account") ?? ""] == "kickedOfflineByOtherClient")
    }

    @Test func theLaterLoginKicksTheEarlierDevice() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json(
            "connect alice-phone; connect alice-tablet; wait alice-phone kickedOfflineByOtherClient --timeout 20; status alice-phone")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.statuses(of: "dev/alice-phone") == ["connecting", "connected", "kickedOfflineByOtherClient"])
        #expect(run.statuses(of: "dev/alice-tablet") == ["connecting", "connected"])
        let detail = try #require(run.result("status")).accounts.first
        #expect(detail?["errorCode"] == 31010 && detail?["session"] == true)
        #expect(detail?.objects("changes").map { $0.string("status") } == ["connecting", "connected", "kickedOfflineByOtherClient"])
        #expect(detail?.string("database")?.hasPrefix("\(sandbox.data)/dev/alice-phone/") == true, "each account its own database")
    }

    @Test func sendDeliversAndHistoryShowsBothSides() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect alice-laptop bob-phone
            send alice-laptop bob "hello there; friend"
            wait bob-phone connected
            sleep 1
            history bob-phone alice
            history alice-laptop -n 1
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let send = try #require(run.result("send"))
        #expect(send["ok"] == true && send["state"] == "sent" && send["peer"] == "bob" && send["direction"] == "out")
        let messages = run.jsonObjects().filter { $0["event"] == "message" }
        #expect(messages.count == 1)
        #expect(messages.first?["account"] == "dev/bob-phone" && messages.first?["from"] == "alice")
        #expect(messages.first?["text"] == "hello there; friend")
        let inbox = try #require(run.result("history")).objects("messages")
        #expect(inbox.map { $0.string("text") } == ["hello there; friend"])
        #expect(inbox.first?["direction"] == "in" && inbox.first?["state"] == "received" && inbox.first?["cid"] == send["cid"])
        let outbox = try #require(run.result("history", 1)).objects("messages")
        #expect(outbox.map { $0.string("state") } == ["sent"])
    }

    @Test func blockUnblockKickAndExpireToken() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect bob-phone alice-laptop
            block bob-phone 5
            wait bob-phone disconnException --timeout 20
            connect bob-phone
            unblock bob-phone
            connect bob-phone
            kick bob-phone
            wait bob-phone kickedOfflineByOtherClient --timeout 20
            expire-token alice-laptop
            net alice-laptop down
            net alice-laptop up
            wait alice-laptop connected --timeout 20
            connect alice-laptop
            """)
        #expect(run.status == 1, "the connect of a blocked user fails\n\(run.stderr)")
        let results = run.results()
        #expect(results.map { $0.string("command") } == [
            "connect", "block", "wait", "connect", "unblock", "connect", "kick", "wait", "expire-token", "net", "net", "wait", "connect",
        ])
        #expect(results.map { $0["ok"] == true } == [true, true, true, false, true, true, true, true, true, true, true, true, true])
        let blocked = run.statusEvents().first { $0["status"] == "disconnException" }
        #expect(blocked?["account"] == "dev/bob-phone" && blocked?["code"] == 16 && blocked?["errorCode"] == 31009)
        let refused = try #require(run.result("connect", 1)).accounts.first
        #expect(refused?["status"] == "disconnException" && refused?["errorCode"] == 31009)
        #expect(refused?.string("message")?.contains("31009") == true)
        #expect(try #require(run.result("connect", 2)).accounts.first?["status"] == "connected", "after unblock")
        #expect(try #require(run.result("kick")).accounts.first?["message"] == "user bob kicked: every device of the user is disconnected")
        let kicked = run.statusEvents().first { $0["status"] == "kickedOfflineByOtherClient" }
        #expect(kicked?["account"] == "dev/bob-phone" && kicked?["errorCode"] == 31010 && kicked?["detail"] == "kicked")
        // The server refuses the expired token; the engine fetches one fresh token from the
        // server API, as from any token source, and logs in again without a terminal status.
        #expect(!run.statusEvents().contains { $0["status"] == "tokenIncorrect" })
        let refreshed = run.statusEvents().first { $0.string("detail")?.hasSuffix("fetching a fresh token") == true }
        #expect(refreshed?["account"] == "dev/alice-laptop" && refreshed?["status"] == "connecting" && refreshed?["errorCode"] == 31020)
        let again = try #require(run.result("connect", 3)).accounts.first
        #expect(again?["status"] == "connected" && again?.string("message") == "already connected", "a fresh token from the API")
    }

    @Test func networkBackgroundForegroundAndDisconnect() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect alice-phone bob-phone
            net all down
            net alice-phone up
            wait alice-phone connected --timeout 20
            net alice-phone change
            wait alice-phone connected --timeout 20
            background all
            foreground bob-phone
            disconnect alice-phone --disable-push
            disconnect all
            status
            """)
        #expect(run.status == 0, "\(run.stderr)")
        let down = try #require(run.result("net"))
        #expect(down.accounts.map { $0.string("status") } == ["networkUnavailable", "networkUnavailable"])
        #expect(run.statuses(of: "dev/alice-phone").starts(with: ["connecting", "connected", "networkUnavailable", "connecting", "connected"]))
        #expect(run.statuses(of: "dev/alice-phone").last == "signOut")
        #expect(try #require(run.result("background")).accounts.count == 2)
        #expect(try #require(run.result("foreground")).accounts.map { $0.string("account") } == ["dev/bob-phone"])
        let first = try #require(run.result("disconnect")).accounts
        #expect(first.map { $0.string("status") } == ["signOut"])
        let all = try #require(run.result("disconnect", 1)).accounts
        #expect(all.map { $0.string("account") } == ["dev/alice-phone", "dev/bob-phone"])
        #expect(all[0]["message"] == "was not connected (signOut)", "the second disconnect of alice")
        #expect(run.statuses(of: "dev/bob-phone").last == "signOut")
    }

    @Test func logsOfAnAccountAndOfTheRun() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect bob-phone; disconnect bob-phone; log bob-phone; log -n 2; log alice-phone")
        #expect(run.status == 1, "alice-phone has no session\n\(run.stderr)")
        let accountLog = try #require(run.result("log"))
        #expect(accountLog["account"] == "dev/bob-phone")
        #expect(accountLog.objects("entries").map { $0.string("status") } == ["connecting", "connected", "signOut"])
        let journal = try #require(run.result("log", 1)).objects("events")
        #expect(journal.map { $0.string("status") } == ["connected", "signOut"])
        let missing = try #require(run.result("log", 2))
        #expect(missing["ok"] == false && missing["error"] == "dev/alice-phone has no database yet: connect it once (it keeps its messages and log across runs)")
    }

    @Test func commandsNeedingASessionSaySo() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("send bob-phone alice hi; history bob-phone; net bob-phone down; net all down; disconnect all; status nobody")
        #expect(run.status == 1)
        let errors = run.results().map { $0.string("error") }
        #expect(errors == [
            "dev/bob-phone has no session in this run; connect it first",
            "dev/bob-phone has no database yet: connect it once (it keeps its messages and log across runs)",
            nil,  // the simulated network belongs to the account, session or not
            "profile dev has no sessions yet; connect some accounts first",
            nil,
            "no account named nobody in dev (it has alice-phone, alice-tablet, alice-laptop, bob-phone); write PROFILE/ACCOUNT for another profile",
        ])
    }

    @Test func sessionsOfSeveralProfilesRunAtOnce() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect bob-phone prod/carol-web; use prod; connect carol-phone; status; wait all connected; disconnect dev/all")
        #expect(run.status == 0, "\(run.stderr)")
        let status = try #require(run.result("status")).accounts
        #expect(status.map { $0.string("account") } == ["prod/carol-phone", "prod/carol-web", "prod/dave-pc", "dev/bob-phone"])
        #expect(status.map { $0.string("status") } == ["connected", "connected", "unknown", "connected"])
        #expect(try #require(run.result("wait")).accounts.map { $0.string("account") } == ["prod/carol-phone", "prod/carol-web"])
        #expect(try #require(run.result("disconnect")).accounts.map { $0.string("account") } == ["dev/bob-phone"])
    }

    @Test func quitEndsTheScript() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("status; quit; connect all")
        #expect(run.status == 0)
        #expect(run.results().map { $0.string("command") } == ["status", "quit"], "quit has its result too")
        #expect(run.statusEvents().isEmpty)
    }

    @Test func standardInputAndScriptFilesAreScripts() async throws {
        let sandbox = Sandbox()
        let fromStdin = try await sandbox.imsh(["--json"], stdin: "use prod\nsend carol-web dave \"two\nlines\"\nstatus # comment\n")
        #expect(fromStdin.status == 1, "send fails: no session")
        #expect(fromStdin.results().map { $0.string("command") } == ["use", "send", "status"], "a quote spans lines")
        let file = sandbox.write("# a script\nuse prod\nprofiles\n", to: "session.imsh")
        let fromFile = try await sandbox.imsh(["--json", file])
        #expect(fromFile.status == 0)
        #expect(fromFile.results().map { $0.string("command") } == ["use", "profiles"])
        #expect(fromFile.result("profiles")?["active"] == "prod")
        // A backslash continues a line; an escaped one does not; what is left at the end of
        // input runs too.
        let continued = try await sandbox.imsh(["--json"], stdin: "use \\\nprod\nsend carol-web dave x\\\\\nprofiles \\\n")
        #expect(continued.results().map { $0.string("command") } == ["use", "send", "profiles"], "\(continued.stdout)")
        #expect(continued.result("profiles")?["active"] == "prod")
    }

    @Test func textOutputForPeople() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.imsh(["-c", "connect bob-phone; send bob-phone alice hi; use nowhere"], environment: ["NO_COLOR": "1"])
        #expect(run.status == 3, "use of a profile that does not exist is a profile error")
        let lines = run.stdoutLines
        #expect(lines.contains { $0.hasSuffix(" dev/bob-phone connecting (10): connect called") })
        #expect(lines.contains("dev/bob-phone  connected (0) user bob"))
        #expect(lines.contains { $0.hasPrefix("dev/bob-phone → alice: sent, cid ") })
        #expect(run.stderr == "line 1: error: no profile named nowhere (loaded: dev, prod)\n", "a failed command of a script says where it is")
        #expect(!run.stdout.contains("\u{1B}["), "no colour off a terminal")
    }

    @Test func aServerThatNeverAnswersTimesTheConnectOut() async throws {
        let sandbox = Sandbox()
        sandbox.write("""
            { "appKey": "k", "server": "mqtt://127.0.0.1:1", "accounts": { "x": { "userId": "x", "token": "opaque-token" } } }
            """, to: "profiles/offline.json")
        let run = try await sandbox.json("connect offline/x --timeout 1; status offline/x")
        #expect(run.status == 1)
        let outcome = try #require(run.result("connect")?.accounts.first)
        #expect(outcome["status"] == "timeout" && outcome["code"] == 14 && outcome["errorCode"] == 34006 && outcome["errorName"] == "RC_CONNECT_TIMEOUT")
        #expect(run.statuses(of: "offline/x").first == "connecting" && run.statuses(of: "offline/x").last == "timeout")
        #expect(!run.stdout.contains("opaque-token"))
    }
}
