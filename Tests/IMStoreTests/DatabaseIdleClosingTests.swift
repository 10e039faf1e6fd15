import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IMStore
import TestSupport
import Testing

/// A queue with idle closing gives its file back while unused and opens it again, as it
/// was, at the next use.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseIdleClosingTests {
    private func open(_ path: String, _ idleClosing: DatabaseQueue.IdleClosing) async throws -> DatabaseQueue {
        var migrator = DatabaseMigrator()
        migrator.register("t") { try $0.executeScript("CREATE TABLE t(x INTEGER)") }
        var configuration = Database.Configuration.compact
        configuration.journalMode = .persist
        return try await DatabaseQueue.open(path: path, configuration: configuration, migrator: migrator, idleClosing: idleClosing).queue
    }

    private func descriptors(on path: String) -> Int { OpenDescriptors.count(on: path) }

    private func count(_ queue: DatabaseQueue) async throws -> Int64 {
        try await queue.read { try $0.fetchOnce("SELECT count(*) FROM t").first?[0].int64 ?? -1 }
    }

    @Test func anUnusedFileIsGivenBackAndOpenedAgainAtTheNextUse() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("idle.sqlite")
        let queue = try await open(path, .init(after: .milliseconds(100), crowd: 1_000_000))
        let whileUsed = try await queue.write { db in
            try db.execute("INSERT INTO t(x) VALUES (1)")
            return descriptors(on: path)
        }
        #expect(whileUsed == 1)
        #expect(await eventually(within: .seconds(5)) { await queue.isIdleClosed })
        #expect(descriptors(on: path) == 0, "the descriptor was given back")
        // A borrower from an event loop does not open files: it hands the work to the queue.
        #expect(queue.runHereIfFree { _ in true } == nil)

        let reopened = try await queue.write { db in
            try db.execute("INSERT INTO t(x) VALUES (2)")
            return descriptors(on: path)
        }
        #expect(reopened == 1)
        #expect(try await count(queue) == 2, "opened again, with what it held")
        await queue.close()
        #expect(descriptors(on: path) == 0)
    }

    @Test func inACrowdEachUseClosesTheFileAfterIt() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("crowd.sqlite")
        let queue = try await open(path, .init(after: .seconds(3600), crowd: 0))
        for value in 1...5 {
            try await queue.write { try $0.execute("INSERT INTO t(x) VALUES (?)", [.integer(Int64(value))]) }
            #expect(await queue.isIdleClosed, "closed right after use \(value)")
            #expect(descriptors(on: path) == 0)
        }
        #expect(try await count(queue) == 5)
        await queue.close()
    }

    @Test func aFileRemovedWhileGivenBackIsNotMadeAgain() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("gone.sqlite")
        let queue = try await open(path, .init(after: .seconds(3600), crowd: 0))
        try await queue.write { try $0.execute("INSERT INTO t(x) VALUES (1)") }
        #expect(await queue.isIdleClosed)
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: DatabaseError.self) { try await count(queue) }
        #expect(!FileManager.default.fileExists(atPath: path), "not created empty")
        await queue.close()
    }

    @Test func aClosedQueueIsNotOpenedAgain() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("closed.sqlite")
        let queue = try await open(path, .init(after: .seconds(3600), crowd: 0))
        try await queue.write { try $0.execute("INSERT INTO t(x) VALUES (1)") }
        await queue.close()
        await #expect(throws: DatabaseError.self) { try await count(queue) }
        #expect(descriptors(on: path) == 0)
    }
}
