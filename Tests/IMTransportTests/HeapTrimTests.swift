@testable import IMTransport
import Testing

struct HeapTrimTests {
    private let millisecond: UInt64 = 1_000_000

    @Test func trimsOnlyWhenAskedAndAboutToSleep() {
        var trim = HeapTrim(interval: .milliseconds(100))
        #expect(trim.beforeWaiting(timeout: -1, now: 5 * millisecond) == (false, -1))
        trim.request()
        // Work is queued (timeout 0): the loop is not idle yet.
        #expect(trim.beforeWaiting(timeout: 0, now: 5 * millisecond) == (false, 0))
        #expect(trim.beforeWaiting(timeout: 50, now: 5 * millisecond) == (true, 50))
        #expect(!trim.isRequested)
        #expect(trim.beforeWaiting(timeout: -1, now: 500 * millisecond) == (false, -1))
    }

    @Test func aTrimTooSoonAfterTheLastShortensTheWaitInstead() {
        var trim = HeapTrim(interval: .milliseconds(100))
        trim.request()
        #expect(trim.beforeWaiting(timeout: -1, now: 1_000 * millisecond).trim)
        trim.request()
        // 30 ms after the last trim: wake in 70 ms to do it, or sooner for a nearer timer.
        #expect(trim.beforeWaiting(timeout: -1, now: 1_030 * millisecond) == (false, 70))
        #expect(trim.beforeWaiting(timeout: 20, now: 1_030 * millisecond) == (false, 20))
        #expect(trim.isRequested)
        #expect(trim.beforeWaiting(timeout: -1, now: 1_100 * millisecond) == (true, -1))
    }

    @Test func anIdleLoopRunsTheTrimItWasAskedFor() async throws {
        let loop = try EventLoop(name: "test")
        defer { loop.shutdown() }
        try await onLoop(loop) { loop.trimHeapWhenIdle() }
        // The request is taken when the loop next goes to sleep, which a later task follows.
        try await Task.sleep(for: .milliseconds(50))
        let pending = try await onLoop(loop) { loop.state.value.heapTrim.isRequested }
        #expect(!pending)
    }
}
