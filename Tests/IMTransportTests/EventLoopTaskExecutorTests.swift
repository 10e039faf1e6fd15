import Foundation
import IMTransport
import Testing

/// A task that prefers an event loop runs on the loop's thread, comes back to it after a
/// suspension, and still finishes once the loop has stopped.
@Suite(.timeLimit(.minutes(1)))
struct EventLoopTaskExecutorTests {
    /// An actor with the default executor: its code runs where the calling task prefers.
    actor Counter {
        var value = 0
        func increment(on loop: EventLoop) -> (Int, Bool) {
            value += 1
            return (value, loop.inEventLoop)
        }
    }

    @Test func aTaskThatPrefersTheLoopRunsOnItsThread() async throws {
        let loop = try EventLoop(name: "preferred")
        defer { loop.shutdown() }
        let counter = Counter()
        let seen = await Task(executorPreference: loop) { () -> [Bool] in
            var seen = [loop.inEventLoop]
            // Resumed from the loop itself, then from another thread: back on the loop both times.
            await withCheckedContinuation { continuation in
                _ = loop.execute { continuation.resume() }
            }
            seen.append(loop.inEventLoop)
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume() }
            }
            seen.append(loop.inEventLoop)
            let (_, inLoop) = await counter.increment(on: loop)
            seen.append(inLoop)
            return seen
        }.value
        #expect(seen == [true, true, true, true])
        let (value, inLoop) = await counter.increment(on: loop)
        #expect(value == 2)
        #expect(!inLoop, "a task without the preference runs the actor elsewhere")
    }

    @Test func aTaskStillFinishesAfterTheLoopStopped() async throws {
        let loop = try EventLoop(name: "stopped")
        loop.shutdown()
        let value = await Task(executorPreference: loop) { 42 }.value
        #expect(value == 42)
    }

    @Test func manyTasksOnTheLoopAllFinish() async throws {
        let loop = try EventLoop(name: "many")
        defer { loop.shutdown() }
        let onLoop = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<1_000 {
                group.addTask(executorPreference: loop) {
                    await Task.yield()
                    return loop.inEventLoop
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(onLoop == 1_000)
    }
}
