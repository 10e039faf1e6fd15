import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import IMStore
import Synchronization
import TestSupport
import Testing

/// An event loop borrows a database for a short write only when nothing else uses it, and
/// never waits for another connection's lock while it does.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseQueueBorrowTests {
    private func open(_ directory: TemporaryDirectory) async throws -> DatabaseQueue {
        var migrator = DatabaseMigrator()
        migrator.register("t") { try $0.executeScript("CREATE TABLE t(x INTEGER)") }
        return try await DatabaseQueue.open(path: directory.file("b.sqlite"), migrator: migrator).queue
    }

    @Test func anIdleDatabaseIsUsedOnTheCallingThreadABusyOneIsNot() async throws {
        let directory = TemporaryDirectory()
        let queue = try await open(directory)
        let caller = pthread_self()
        let ran = queue.runHereIfFree { db in
            try? db.execute("INSERT INTO t(x) VALUES (1)")
            return pthread_equal(pthread_self(), caller) != 0
        }
        #expect(ran == true, "ran at once, on the caller's thread")

        // Work under way on the queue holds the database: the borrower is turned away at once.
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let busy: Task<Void, any Error> = Task.detached {
            try await queue.run { _ in
                started.signal()
                release.wait()
            }
        }
        started.wait()
        #expect(queue.runHereIfFree { _ in true } == nil)
        release.signal()
        try await busy.value
        #expect(try await queue.read { try $0.fetchOne("SELECT count(*) FROM t")?[0].int64 } == 1)
        await queue.close()
    }

    @Test func lockWaitsAreOffOnlyInside() async throws {
        let directory = TemporaryDirectory()
        let path = directory.file("b.sqlite")
        let queue = try await open(directory)
        var configuration = Database.Configuration()
        configuration.journalMode = nil
        let holder = try Database(path: path, configuration: configuration)
        try holder.executeScript("BEGIN IMMEDIATE")

        let clock = ContinuousClock()
        let start = clock.now
        let refused = queue.runHereIfFree { db in
            db.waitingForLocks(atMost: .zero) { db in (try? db.execute("INSERT INTO t(x) VALUES (2)")) == nil }
        }
        #expect(refused == true, "the write met the other connection's lock")
        #expect(clock.now - start < .seconds(2), "and did not wait out the 5 s busy timeout")

        // Outside, the connection waits for the lock again: released after 300 ms, the write succeeds.
        let writer = Task.detached { try await queue.write { try $0.execute("INSERT INTO t(x) VALUES (3)") } }
        try await Task.sleep(for: .milliseconds(300))
        try holder.executeScript("ROLLBACK")
        holder.close()
        try await writer.value
        #expect(try await queue.read { try $0.fetchOne("SELECT x FROM t")?[0].int64 } == 3)
        await queue.close()
    }
}
