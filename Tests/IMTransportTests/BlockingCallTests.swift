#if canImport(Glibc)
import Glibc
#endif
import IMThreads
import IMTransport
import Synchronization
import Testing

/// Blocking calls run on threads of their own, never holding Swift's cooperative pool.
struct BlockingCallTests {
    /// More calls than the pool has threads, each blocked until all have started: on the pool
    /// they could not all start, and each would give up at its deadline.
    @Test func manyBlockedCallsRunAtOnce() async {
        let count = 24
        final class Counter: Sendable { let value = Atomic<Int>(0) }
        let started = Counter()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    await BlockingCall.run { () -> Bool in
                        started.value.add(1, ordering: .relaxed)
                        let deadline = ContinuousClock.now + .seconds(10)
                        while started.value.load(ordering: .relaxed) < count {
                            if ContinuousClock.now > deadline { return false }
                            usleep(1000)
                        }
                        return true
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: count))
    }

    @Test func anErrorComesBackToTheCaller() async throws {
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await BlockingCall.run { () throws -> Int in throw Failure() } }
        #expect(try await BlockingCall.run { () throws -> Int in 7 } == 7)
    }
}
