import IMStore
import TestSupport
import Testing

struct DatabaseQueueTests {
    private func schema() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.register("messages") { database in
            try database.executeScript("CREATE TABLE message(uid INTEGER PRIMARY KEY, sender TEXT NOT NULL, body BLOB)")
        }
        return migrator
    }

    @Test func manyTasksWriteAndReadSafely() async throws {
        let directory = TemporaryDirectory()
        let (queue, moved) = try await DatabaseQueue.open(path: directory.file("q.sqlite"), migrator: schema())
        #expect(moved.isEmpty)
        let writers = 40
        let perWriter = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<perWriter {
                        try await queue.write { database in
                            try database.execute(
                                "INSERT INTO message(sender, body) VALUES (?, ?)",
                                [.text("w\(writer)"), .blob([UInt8(index)])])
                        }
                    }
                }
                group.addTask {
                    // Readers see whole transactions: the per-sender counts never exceed the total.
                    let (total, bySender) = try await queue.read { database in
                        let total = try database.fetchOne("SELECT count(*) FROM message")?[0].int64 ?? -1
                        let sum = try database.fetchOne("SELECT sum(c) FROM (SELECT count(*) AS c FROM message GROUP BY sender)")?[0].int64 ?? 0
                        return (total, sum)
                    }
                    #expect(total == bySender)
                }
            }
            try await group.waitForAll()
        }
        let count = try await queue.read { database in
            try database.fetchOne("SELECT count(*) FROM message")?[0].int64
        }
        #expect(count == Int64(writers * perWriter))
        let distinct = try await queue.read { database in
            try database.fetchOne("SELECT count(DISTINCT sender) FROM message")?[0].int64
        }
        #expect(distinct == Int64(writers))
    }

    @Test func aThrowingWriteRollsBack() async throws {
        struct Boom: Error {}
        let directory = TemporaryDirectory()
        let (queue, _) = try await DatabaseQueue.open(path: directory.file("q.sqlite"), migrator: schema())
        await #expect(throws: Boom.self) {
            try await queue.write { database in
                try database.execute("INSERT INTO message(sender) VALUES ('x')")
                throw Boom()
            }
        }
        let count = try await queue.read { try $0.fetchOne("SELECT count(*) FROM message")?[0].int64 }
        #expect(count == 0)
    }

    @Test func openRecoversACorruptFileAndMigrates() async throws {
        let directory = TemporaryDirectory()
        directory.write(Array(repeating: 0xAB, count: 5000), to: "q.sqlite")
        let (queue, moved) = try await DatabaseQueue.open(
            path: directory.file("q.sqlite"), migrator: schema(), recoverCorruption: true)
        #expect(moved.count == 1)
        #expect(directory.read(String(moved[0].split(separator: "/").last!)) == Array(repeating: 0xAB, count: 5000))
        let version = try await queue.run { try $0.userVersion() }
        #expect(version == 1)
        let mode = try await queue.run { try $0.journalMode() }
        #expect(mode == "wal")
    }

    @Test func closeEndsTheConnection() async throws {
        let directory = TemporaryDirectory()
        let (queue, _) = try await DatabaseQueue.open(path: directory.file("q.sqlite"))
        await queue.close()
        await #expect(throws: DatabaseError.self) {
            try await queue.run { try $0.execute("SELECT 1") }
        }
    }
}
