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
        // The command notes each start, so that the time is counted from there and not from
        // imsh's own start (an embedded server's took up to 4 s more under a loaded CI machine).
        let startedFile = sandbox.root + "/started"
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": "embedded",
              "accounts": { "t": { "userId": "t", "tokenCommand": "date +%s%3N >> \(startedFile); \(command)" } } }
            """, to: "profiles/p.json")
        let run = try await sandbox.json("connect t --timeout 3")
        #expect(run.status == 1, "\(run.stderr)")
        // The first run's start: a fetch that outlived its own limit would have run it again.
        let started = try String(contentsOfFile: startedFile, encoding: .utf8).split(separator: "\n").first.flatMap { Int64($0) }
        let ended = run.result("connect")?["at"]?.integerValue
        let took = try #require(ended.flatMap { ended in started.map { ended - $0 } }, "\(run.stdout)")
        // The fetch's own limit is 10 s; the connect's 3 s, plus the kill's grace, must win.
        #expect(took < 9_000, "the connect ended \(took) ms after the command started")
        let left = LiveProcesses.awaitGone(survivor)
        left.forEach { _ = kill($0, SIGKILL) }
        #expect(left.isEmpty, "\(survivor) outlived imsh: \(left)")
    }

    /// imsh ending while a connect still waits for its token command ends the command too: a
    /// `--no-wait` connect leaves the fetch running when the script ends. (That connect itself
    /// returns only after 5 s here: it waits for the session's first status, which comes after
    /// the token.)
    @Test func aTokenCommandStillRunningWhenImshEndsEndsWithIt() async throws {
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": "embedded",
              "accounts": { "t": { "userId": "t", "tokenCommand": "trap '' TERM; sleep 9869" } } }
            """, to: "profiles/p.json")
        let run = try await sandbox.json("connect t --no-wait; sleep 0.5")
        #expect(run.status == 0, "\(run.stdout)")
        let left = LiveProcesses.awaitGone("sleep 9869", within: .seconds(1))
        left.forEach { _ = kill($0, SIGKILL) }
        #expect(left.isEmpty, "the token command outlived imsh: \(left)")
    }
}
