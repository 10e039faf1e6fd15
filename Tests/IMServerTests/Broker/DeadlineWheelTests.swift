@testable import IMServer
import Testing

struct DeadlineWheelTests {
    private let ms: UInt64 = 1_000_000

    @Test func anEntryComesBackAtTheFirstTickAtOrAfterItsDeadlineNeverBefore() {
        var wheel = DeadlineWheel<Int>(tick: .milliseconds(250), slots: 8, now: 0)
        wheel.insert(1, at: 1_500 * ms)
        wheel.insert(2, at: 1_600 * ms)
        #expect(wheel.advance(to: 1_499 * ms).isEmpty)
        #expect(wheel.advance(to: 1_500 * ms) == [1])
        #expect(wheel.advance(to: 1_749 * ms).isEmpty)
        #expect(wheel.advance(to: 1_750 * ms) == [2])
        #expect(wheel.isEmpty)
    }

    @Test func aDeadlineBeyondOneRevolutionComesBackEarlyForTheCallerToFileAgain() {
        // 8 slots of 250 ms: one revolution is 2 s.
        var wheel = DeadlineWheel<Int>(tick: .milliseconds(250), slots: 8, now: 0)
        wheel.insert(7, at: 5_000 * ms)
        var seen: [UInt64] = []
        var now: UInt64 = 0
        while now <= 5_000 * ms {
            for entry in wheel.advance(to: now) {
                #expect(entry == 7)
                seen.append(now)
                if now < 5_000 * ms { wheel.insert(entry, at: 5_000 * ms) }
            }
            now += 250 * ms
        }
        #expect(seen.last == 5_000 * ms)
        #expect(seen.count <= 3)
        #expect(wheel.isEmpty)
    }

    @Test func aLateAdvanceReturnsEverythingDueAndAnEntryInThePastComesNextTick() {
        var wheel = DeadlineWheel<Int>(tick: .milliseconds(250), slots: 8, now: 0)
        for entry in 0..<20 { wheel.insert(entry, at: UInt64(entry) * 300 * ms) }
        // Long after every deadline, and past more than a revolution.
        #expect(wheel.advance(to: 60_000 * ms).sorted() == Array(0..<20))
        wheel.insert(99, at: 1 * ms)
        #expect(wheel.advance(to: 60_000 * ms).isEmpty)
        #expect(wheel.advance(to: 60_250 * ms) == [99])
    }
}
