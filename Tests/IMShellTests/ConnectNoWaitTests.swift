import Foundation
import IMJSON
import Testing

/// `connect --no-wait`: the answer comes once every call is started; events and `wait` tell the rest.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ConnectNoWaitTests {
    @Test func theAnswerDoesNotWaitForTheServer() async throws {
        let sandbox = Sandbox(shipped: false)
        // Port 1 refuses every connection: with timeout 0 the call would retry for ever.
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": ["mqtt://127.0.0.1:1"],
              "accounts": { "a": { "userId": "a", "token": "literal-token-for-a", "timeout": 0 } } }
            """, to: "profiles/p.json")
        let started = ContinuousClock.now
        let run = try await sandbox.json("connect a --no-wait; status a; disconnect a")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(run.status == 0, "\(run.stderr)")
        let account = try #require(run.result("connect")?.accounts.first)
        #expect(account["ok"] == true && account["message"] == "started")
        // The call's start is an event: status knows the session at once, before its first status.
        let row = try #require(run.result("status")?.accounts.first)
        #expect(row["session"] == true)
        #expect(["preparing", "connecting", "waiting"].contains(row.string("state") ?? ""), "\(row)")
        #expect(run.result("disconnect")?.accounts.first?["status"] == "signOut")
    }

    @Test func waitFollowsTheStartedCallsToTheirEnd() async throws {
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": "embedded",
              "accounts": { "u1": { "userId": "u1" }, "u2": { "userId": "u2" }, "u3": { "userId": "u3" } } }
            """, to: "profiles/p.json")
        let run = try await sandbox.json("connect all --no-wait; wait all connected --timeout 20; status")
        #expect(run.status == 0, "\(run.stderr)")
        let connect = try #require(run.result("connect")).accounts
        #expect(connect.map { $0.string("account") } == ["p/u1", "p/u2", "p/u3"])
        #expect(connect.allSatisfy { $0["message"] == "started" })
        #expect(run.result("wait")?["ok"] == true)
        #expect(try #require(run.result("status")).accounts.allSatisfy { $0["status"] == "connected" })
        #expect(run.statusEvents().filter { $0["status"] == "connected" }.count == 3, "each end arrives as an event")
    }

    /// A named account never connected fails at once, as for the other session commands; the
    /// others are waited for as usual.
    @Test func waitOnAnAccountWithoutASessionFailsAtOnce() async throws {
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": "embedded",
              "accounts": { "u1": { "userId": "u1" }, "u2": { "userId": "u2" } } }
            """, to: "profiles/p.json")
        let started = ContinuousClock.now
        let run = try await sandbox.json("connect u1 --no-wait; wait u1 u2 connected --timeout 20")
        #expect(ContinuousClock.now - started < .seconds(15), "wait sat out its timeout")
        #expect(run.status == 1)
        let outcomes = try #require(run.result("wait")).accounts
        #expect(outcomes.map { $0.string("account") } == ["p/u1", "p/u2"])
        #expect(outcomes[0]["ok"] == true)
        #expect(outcomes[1]["ok"] == false && outcomes[1].string("message") == "no session yet; connect p/u2 first")
    }
}
