@testable import IMTransport
import Synchronization
import Testing
import TestSupport

struct EventLoopTests {
    @Test func runsTasksInOrderOnTheLoopThread() async throws {
        let loop = try EventLoop(name: "test")
        defer { loop.shutdown() }
        #expect(!loop.inEventLoop)
        let seen = Mutex<[Int]>([])
        for index in 0..<100 {
            loop.execute { seen.withLock { $0.append(loop.inEventLoop ? index : -1) } }
        }
        _ = try await onLoop(loop) { 0 }
        #expect(seen.withLock { $0 } == Array(0..<100))
    }

    @Test func timersFireInDeadlineOrderAndCancelledOnesDoNot() async throws {
        let loop = try EventLoop(name: "test")
        defer { loop.shutdown() }
        let fired = Mutex<[Int]>([])
        try await withTimeout(.seconds(5)) {
            let clock = ContinuousClock()
            let started = clock.now
            try await onLoop(loop) {
                loop.scheduleTimer(after: .milliseconds(60)) { fired.withLock { $0.append(3) } }
                loop.scheduleTimer(after: .milliseconds(20)) { fired.withLock { $0.append(1) } }
                let cancelled = loop.scheduleTimer(after: .milliseconds(30)) { fired.withLock { $0.append(99) } }
                loop.scheduleTimer(after: .milliseconds(40)) { fired.withLock { $0.append(2) } }
                loop.cancelTimer(cancelled)
            }
            while fired.withLock({ $0.count }) < 3 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(clock.now - started >= .milliseconds(60))
        }
        #expect(fired.withLock { $0 } == [1, 2, 3])
    }

    @Test func endOfTurnTasksRunLateInTheSameTurnAndMayAskForMore() async throws {
        let loop = try EventLoop(name: "test")
        defer { loop.shutdown() }
        let seen = Mutex<[String]>([])
        @Sendable func note(_ what: String) { seen.withLock { $0.append(what) } }
        loop.execute {
            loop.executeAtEndOfTurn {
                note("end 1")
                loop.executeAtEndOfTurn { note("end 2") }
            }
            // Joins the inbox after this turn took it: runs in the next turn.
            loop.execute { note("next turn") }
            note("task")
        }
        try await withTimeout(.seconds(5)) {
            while seen.withLock({ $0.count }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(seen.withLock { $0 } == ["task", "end 1", "end 2", "next turn"])
    }

    @Test func refusesTasksAfterShutdown() throws {
        let loop = try EventLoop(name: "test")
        loop.shutdown()
        #expect(loop.execute {} == false)
        loop.shutdown()  // a second call does nothing
    }

    @Test func timerQueueKeepsOrderThroughManyCancellations() {
        var queue = TimerQueue()
        var ids: [TimerID] = []
        for deadline in (0..<500).reversed() {
            ids.append(queue.schedule(at: UInt64(deadline)) {})
        }
        for id in ids.dropFirst(10) { queue.cancel(id) }  // keep deadlines 499...490
        #expect(queue.nextDeadline() == 490)
        #expect(queue.takeExpired(now: 494).count == 5)
        #expect(queue.nextDeadline() == 495)
    }

    @Test func groupHandsOutLoopsInTurn() throws {
        let group = try EventLoopGroup(threads: 3, name: "test")
        defer { group.shutdown() }
        let picked = (0..<6).map { _ in group.next() }
        #expect(picked[0] === picked[3] && picked[1] === picked[4] && picked[0] !== picked[1])
    }
}
