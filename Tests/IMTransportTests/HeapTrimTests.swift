@testable import IMTransport
import Testing

struct HeapTrimTests {
    private let millisecond: UInt64 = 1_000_000

    @Test func trimsOnlyWhenAskedAndAboutToSleep() {
        var trim = HeapTrim(gate: HeapTrim.Gate())
        #expect(trim.beforeWaiting(timeout: -1, now: 5 * millisecond) == (false, -1))
        trim.request()
        // Work is queued (timeout 0): the loop is not idle yet.
        #expect(trim.beforeWaiting(timeout: 0, now: 5 * millisecond) == (false, 0))
        #expect(trim.beforeWaiting(timeout: 50, now: 5 * millisecond) == (true, 50))
        #expect(!trim.isRequested)
        #expect(trim.beforeWaiting(timeout: -1, now: 500 * millisecond) == (false, -1))
    }

    @Test func aTrimWaitsAHundredTimesWhatTheLastCostShorteningTheWaitMeanwhile() {
        var trim = HeapTrim(gate: HeapTrim.Gate())
        trim.request()
        #expect(trim.beforeWaiting(timeout: -1, now: 1_000 * millisecond).trim)
        // It took 0.3 ms: the next may come 30 ms after it ended, at 1030.3 ms.
        trim.trimmed(from: 1_000 * millisecond, to: 1_000 * millisecond + 300_000)
        trim.request()
        #expect(trim.beforeWaiting(timeout: -1, now: 1_010 * millisecond) == (false, 21))
        #expect(trim.beforeWaiting(timeout: 5, now: 1_010 * millisecond) == (false, 5))
        #expect(trim.isRequested)
        #expect(trim.beforeWaiting(timeout: -1, now: 1_030 * millisecond) == (false, 1))
        #expect(trim.beforeWaiting(timeout: -1, now: 1_031 * millisecond) == (true, -1))
    }

    @Test func loopsSharingAGateDoNotTrimWithinEachOthersGap() {
        let gate = HeapTrim.Gate()
        var first = HeapTrim(gate: gate), second = HeapTrim(gate: gate)
        first.request()
        second.request()
        #expect(first.beforeWaiting(timeout: -1, now: 1_000 * millisecond).trim)
        // While the first trims, the second waits.
        #expect(!second.beforeWaiting(timeout: -1, now: 1_000 * millisecond).trim)
        first.trimmed(from: 1_000 * millisecond, to: 1_001 * millisecond)
        #expect(second.beforeWaiting(timeout: -1, now: 1_050 * millisecond) == (false, 51))
        #expect(second.beforeWaiting(timeout: -1, now: 1_101 * millisecond).trim)
    }

    @Test func anIdleLoopRunsTheTrimItWasAskedFor() async throws {
        let loop = try EventLoop(name: "test")
        defer { loop.shutdown() }
        try await onLoop(loop) { loop.trimHeapWhenIdle() }
        // Other loops of this process may have trimmed just before: their gap may delay this one.
        let deadline = ContinuousClock.now + .seconds(10)
        var pending = true
        while pending && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            pending = try await onLoop(loop) { loop.state.value.heapTrim.isRequested }
        }
        #expect(!pending)
    }
}
