import IMStore
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct DatabaseThreadsTests {
    @Test func manyQueuesShareTheGivenThreadsAndEachStaysInOrder() async throws {
        let directory = TemporaryDirectory()
        let threads = DatabaseThreads(count: 2, label: "test.database")
        var queues: [DatabaseQueue] = []
        for index in 0..<20 {
            let (queue, _) = try await DatabaseQueue.open(path: directory.file("db\(index).sqlite"), target: threads.nextQueue())
            try await queue.write { try $0.executeScript("CREATE TABLE t(n INTEGER)") }
            queues.append(queue)
        }
        let all = queues
        // Dispatch may serve a serial queue from any of its worker threads, so the property is
        // how many writes run at once (at most one per given thread), not which threads run them.
        let gauge = Gauge()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for queue in all {
                for number in 0..<20 {
                    group.addTask {
                        try await queue.write { database in
                            gauge.enter()
                            defer { gauge.leave() }
                            try database.execute("INSERT INTO t VALUES (?)", [.integer(Int64(number))])
                            usleep(100)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(gauge.most <= 2 && gauge.most >= 1)
        for queue in queues {
            let count = try await queue.read { try $0.fetchOne("SELECT count(*) FROM t")?[0].int64 }
            #expect(count == 20)
            await queue.close()
        }
    }
}

/// How many callers are inside at once, and the most there ever were.
final class Gauge: Sendable {
    private let state = Mutex((inside: 0, most: 0))

    func enter() {
        state.withLock { state in
            state.inside += 1
            state.most = max(state.most, state.inside)
        }
    }

    func leave() { state.withLock { $0.inside -= 1 } }

    var most: Int { state.withLock { $0.most } }
}
