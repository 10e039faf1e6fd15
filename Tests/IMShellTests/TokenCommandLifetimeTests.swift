import Glibc
import Testing
import TestSupport

/// A token command that hangs: `connect --timeout` bounds the whole connect, the fetch included,
/// and nothing the command started outlives imsh, even in a session of its own.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TokenCommandLifetimeTests {
    @Test(arguments: [
        ("sleep 9861", "sleep 9861"),
        ("sleep 9862 | cat", "sleep 9862"),
        ("trap '' TERM; sleep 9863", "sleep 9863"),
        // Out of the group and the session: imsh adopts them as orphans and kills them.
        ("setsid sleep 9864 &", "sleep 9864"),
        ("setsid -f sleep 9865; sleep 9866", "sleep 9865"),
        ("setsid -f sh -c 'setsid -f sleep 9867'", "sleep 9867"),
    ])
    func aHangingTokenCommandEndsAtTheConnectTimeoutAndLeavesNothing(command: String, survivor: String) async throws {
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": "embedded",
              "accounts": { "t": { "userId": "t", "tokenCommand": "\(command)" } } }
            """, to: "profiles/p.json")
        let started = ContinuousClock.now
        let run = try await sandbox.json("connect t --timeout 3")
        let took = ContinuousClock.now - started
        #expect(run.status == 1, "\(run.stderr)")
        // The fetch's own limit is 10 s; the connect's 3 s, plus the kill's grace, must win.
        // Under 10 s is all that tells them apart: imsh's own start (an embedded server) took
        // up to 4 s more under a loaded CI machine's parallel tests.
        #expect(took < .seconds(9.5), "connect took \(took)")
        let left = LiveProcesses.awaitGone(survivor)
        left.forEach { _ = kill($0, SIGKILL) }
        #expect(left.isEmpty, "\(survivor) outlived imsh: \(left)")
    }
}
