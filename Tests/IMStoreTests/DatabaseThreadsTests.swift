import IMStore
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
        let threadsSeen = try await withThrowingTaskGroup(of: UInt.self) { group in
            for queue in all {
                for number in 0..<20 {
                    group.addTask {
                        try await queue.write { database in
                            try database.execute("INSERT INTO t VALUES (?)", [.integer(Int64(number))])
                            return UInt(pthread_self())
                        }
                    }
                }
            }
            var seen = Set<UInt>()
            for try await thread in group { seen.insert(thread) }
            return seen
        }
        #expect(threadsSeen.count <= 2)
        for queue in queues {
            let count = try await queue.read { try $0.fetchOne("SELECT count(*) FROM t")?[0].int64 }
            #expect(count == 20)
            await queue.close()
        }
    }
}
