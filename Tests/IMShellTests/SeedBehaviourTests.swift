import Foundation
import IMJSON
import Testing

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
}
