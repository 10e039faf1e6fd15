import IMEngine
import IMTransport
import Testing
import TestSupport

/// A token command runs on a thread of its own; a task that gives up on the fetch (a connect
/// attempt given up) must still end the command then, not at the fetch's deadline.
@Suite(.timeLimit(.minutes(1)))
struct TokenCommandCancellationTests {
    @Test func aCancelledFetchEndsItsCommandAtOnce() async throws {
        let loops = try EventLoopGroup(threads: 1, name: "token-command")
        defer { loops.shutdown() }
        let started = ContinuousClock.now
        let fetch = Task { try await TokenFetcher.fetch(.command("sleep 9873"), timeout: .seconds(30), loop: loops.next()) }
        while LiveProcesses.matching("sleep 9873").isEmpty && ContinuousClock.now - started < .seconds(10) {
            try await Task.sleep(for: .milliseconds(20))
        }
        fetch.cancel()
        await #expect(throws: TokenFetchError.self) { try await fetch.value }
        // The fetch's own deadline was 30 s away; the command's grace is half a second.
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(LiveProcesses.awaitGone("sleep 9873", within: .seconds(1)).isEmpty)
    }
}
