import Foundation
import IMJSON
import Testing
import TestSupport

/// The seeds' behaviour as a user drives it through imsh in script mode.
@Suite(.timeLimit(.minutes(2)))
struct SeedBehaviourTests {
    @Test func waitFailsAtOnceForAnAccountThatEndedForGood() async throws {
        let sandbox = Sandbox()
        let started = ContinuousClock.now
        let run = try await sandbox.json(
            "connect alice-phone; connect alice-tablet; wait alice-phone kickedOfflineByOtherClient --timeout 20; wait alice-phone connected --timeout 25")
        #expect(ContinuousClock.now - started < .seconds(15), "the second wait did not sit out its 25 s")
        #expect(run.status == 1)
        let failed = try #require(run.result("wait", 1)).accounts.first
        #expect(failed?["ok"] == false && failed?["status"] == "kickedOfflineByOtherClient" && failed?["errorCode"] == 31010)
        #expect(failed?.string("message")?.hasPrefix("ended for good: kickedOfflineByOtherClient (6), error 31010") == true)
    }

    @Test func deactivateEndsTheDevicesAndReactivateLetsThemBack() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect bob-phone
            deactivate bob-phone
            wait bob-phone userAbandon --timeout 10
            connect bob-phone
            reactivate bob-phone
            connect bob-phone
            quit
            """)
        #expect(run.results().map { $0.string("command") } == ["connect", "deactivate", "wait", "connect", "reactivate", "connect", "quit"])
        #expect(run.results().map { $0["ok"] == true } == [true, true, true, false, true, true, true])
        let abandoned = run.statusEvents().first { $0["status"] == "userAbandon" }
        #expect(abandoned?["account"] == "dev/bob-phone" && abandoned?["code"] == 19)
        #expect(try #require(run.result("connect", 1)).accounts.first?["status"] == "userAbandon", "refused while deactivated")
        #expect(try #require(run.result("connect", 2)).accounts.first?["status"] == "connected")
    }

    @Test func aTimeoutOfZeroOrLessMeansForever() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect alice-laptop --timeout -1; status alice-laptop")
        #expect(run.status == 0, "\(run.stdout)")
        #expect(try #require(run.result("connect")).accounts.first?["status"] == "connected")
    }

    /// The seeds' main timeout case: no network from the start, a connect timeout, error 34006.
    @Test func withTheNetworkDownBeforeTheFirstConnectTheConnectTimesOut() async throws {
        let sandbox = Sandbox()
        let started = ContinuousClock.now
        let run = try await sandbox.json("net alice-laptop down; connect alice-laptop --timeout 2; net alice-laptop up; connect alice-laptop")
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(15))
        #expect(run.results().map { $0.string("command") } == ["net", "connect", "net", "connect"])
        let statuses = run.statusEvents().filter { $0["account"] == "dev/alice-laptop" }.map { $0.string("status") }
        #expect(statuses.prefix(2) == ["networkUnavailable", "timeout"], "\(statuses)")
        let timedOut = try #require(run.result("connect")).accounts.first
        #expect(timedOut?["status"] == "timeout" && timedOut?["errorCode"] == 34006)
        #expect(try #require(run.result("connect", 1)).accounts.first?["status"] == "connected", "the network is back")
    }

    @Test func aNetworkChangeDropsTheLinkAndReconnectsAtOnce() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("connect alice-laptop; net alice-laptop change; wait alice-laptop connected --timeout 10")
        #expect(run.status == 0, "\(run.stdout)")
        let changes = run.statusEvents().filter { $0["account"] == "dev/alice-laptop" }
        #expect(changes.map { $0.string("status") } == ["connecting", "connected", "connecting", "connected"])
        #expect(changes[2].string("detail") == "network changed (simulated)")
    }

    /// Each reconnection attempt shows as it is planned: its number and the wait before it.
    @Test func everyPlannedAttemptIsAnEventWithItsNumberAndWait() async throws {
        let sandbox = Sandbox()
        sandbox.write("""
            { "appKey": "k", "server": "mqtt://127.0.0.1:1", "accounts": { "x": { "userId": "x", "token": "opaque-token" } } }
            """, to: "profiles/offline.json")
        let run = try await sandbox.json("connect offline/x --timeout 1")
        let retries = run.jsonObjects().filter { $0["event"] == "retry" }
        #expect(retries.count >= 3, "attempts at 0, 0.05, 0.3, 0.8 s within the 1 s timeout")
        #expect(retries.map { $0.int("attempt") }.prefix(3) == [2, 3, 4])
        #expect(retries.first?["status"] == "connecting" && retries.first?["code"] == 10)
        #expect((retries.first?.number("inSeconds") ?? 0) > 0 && retries.first?.string("detail")?.contains("127.0.0.1:1") == true)
        let text = try await sandbox.imsh(["-c", "connect offline/x --timeout 1"])
        #expect(text.stdout.contains("offline/x connecting (10), attempt 2 in "), "\(text.stdout)")
    }

    /// The background grace is a setting (profile and account) and a `background` option, so
    /// the suspend case shows in seconds.
    @Test func theBackgroundGraceIsASettingAndAnOption() async throws {
        let sandbox = Sandbox()
        var profile = try String(contentsOfFile: "\(sandbox.profiles)/dev.json", encoding: .utf8)
        profile = profile.replacingOccurrences(of: #""timeout": 30,"#, with: #""timeout": 30, "backgroundGrace": 1,"#)
        sandbox.write(profile, to: "profiles/dev.json")
        let started = ContinuousClock.now
        let run = try await sandbox.json("""
            connect alice-laptop bob-phone
            background alice-laptop
            background bob-phone --grace 0.5
            wait alice-laptop bob-phone suspend --timeout 10
            foreground all
            wait alice-laptop bob-phone connected --timeout 10
            """)
        #expect(ContinuousClock.now - started < .seconds(30), "suspended after about a second, not 120")
        #expect(run.status == 0, "\(run.stdout)")
        let suspended = run.statusEvents().filter { $0["status"] == "suspend" }
        #expect(Set(suspended.compactMap { $0.string("account") }) == ["dev/alice-laptop", "dev/bob-phone"])
        #expect(suspended.contains { $0.string("detail")?.contains("0.5 seconds") == true })
    }

    /// `log` and `history` read the account's database from an earlier run when it has no
    /// session in this one, and leave it closed.
    @Test func logAndHistoryReadTheDatabaseOfAnEarlierRun() async throws {
        let sandbox = Sandbox()
        let first = try await sandbox.json("connect alice-laptop bob-phone; send alice-laptop bob hello; wait bob-phone connected; sleep 0.5; quit")
        #expect(first.status == 0, "\(first.stdout)")
        let second = try await sandbox.json("log bob-phone; history bob-phone; connect bob-phone; history bob-phone -n 1")
        #expect(second.status == 0, "\(second.stdout)")
        let log = try #require(second.result("log"))
        #expect(log.objects("entries").map { $0.string("status") } == ["connecting", "connected", "signOut"])
        let history = try #require(second.result("history")).objects("messages")
        #expect(history.map { $0.string("text") } == ["hello"])
        #expect(try #require(second.result("history", 1)).objects("messages").count == 1, "the session's own database, open again")
    }

    /// A damaged database is moved aside and made afresh, and the user hears of it before the
    /// connection completes: dbOpened with recreated and where the old file went.
    @Test func aRecreatedDatabaseIsAnEventBeforeTheConnection() async throws {
        let sandbox = Sandbox()
        let first = try await sandbox.json("connect bob-phone; quit")
        #expect(first.status == 0)
        let file = try #require(SQLiteFiles.all(under: sandbox.data).first { $0.hasSuffix("/bob.sqlite") })
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: file))
        let run = try await sandbox.json("connect bob-phone")
        #expect(run.status == 0, "\(run.stdout)")
        let objects = run.jsonObjects()
        let opened = try #require(objects.firstIndex { $0["event"] == "dbOpened" })
        #expect(objects[opened]["recreated"] == true && objects[opened]["account"] == "dev/bob-phone")
        let moved = objects[opened]["movedAside"].flatMap { value -> String? in
            guard case .array(let items) = value else { return nil }
            return items.first?.stringValue
        }
        #expect(moved?.hasPrefix(file + ".corrupt-") == true, "\(String(describing: moved))")
        let connected = try #require(objects.firstIndex { $0["event"] == "status" && $0["status"] == "connected" })
        #expect(opened < connected, "dbOpened comes before the connection, as the seeds order it")
    }
}
