import Foundation
import TestSupport
import Testing
@testable import IMStore

/// The compact configuration's rollback journal goes out a commit at a time
/// (`JournalBatchingVFS`), and stays a journal: what it protects can be rolled back, from
/// memory or from the file, and a committed file reads back whole. A WAL's frames likewise.
struct JournalBatchingTests {
    private func compactDatabase(_ directory: TemporaryDirectory, configuration: Database.Configuration = .compact) throws -> Database {
        let database = try Database(path: directory.file("j.sqlite"), configuration: configuration)
        try database.executeScript("""
            CREATE TABLE message(id INTEGER PRIMARY KEY, uid TEXT UNIQUE, peer TEXT NOT NULL, text TEXT NOT NULL);
            CREATE INDEX message_peer ON message(peer, id);
            """)
        return database
    }

    @Test func aCommitWritesItsJournalRecordsInOneGo() throws {
        let directory = TemporaryDirectory()
        let database = try compactDatabase(directory)
        defer { database.close() }
        try database.transaction(.immediate) { db in
            try db.execute("INSERT INTO message(uid, peer, text) VALUES ('seed', 'bob', 'x')")
        }
        let before = try #require(database.journalWriteCounts)
        let commits = 20
        for index in 0..<commits {
            try database.transaction(.immediate) { db in
                try db.execute("INSERT INTO message(uid, peer, text) VALUES (?, 'bob', ?)",
                               [.text("uid-\(index)"), .text(String(repeating: "t", count: 100))])
            }
        }
        let after = try #require(database.journalWriteCounts)
        let gathered = after.gathered - before.gathered, written = after.written - before.written
        // Three pages a commit (the table, and two indexes), each journaled as three writes,
        // after the header that opens the transaction.
        #expect(gathered >= 9 * commits + commits, "\(gathered) journal writes gathered")
        #expect(written == commits, "\(written) writes for \(commits) commits")
        // Besides: only the zeroed header that ends each transaction.
        #expect(after.direct - before.direct == commits, "\(after.direct - before.direct) writes went straight through")
        #expect(try database.fetchOne("SELECT count(*) FROM message")?[0] == .integer(Int64(commits + 1)))
    }

    /// Opens a transaction bigger than the 64 KiB cache over a committed row 'kept', which it
    /// changes: pages go into the file before its end (their journal first). Returns the
    /// journal's counts from before the transaction and after its statements.
    private func spilledTransaction(_ database: Database) throws -> (before: Int, during: Int) {
        try database.transaction(.immediate) { db in
            try db.execute("INSERT INTO message(uid, peer, text) VALUES ('kept', 'bob', 'before')")
        }
        let before = try #require(database.journalWriteCounts)
        try database.execute("BEGIN IMMEDIATE")
        for index in 0..<500 {
            try database.execute("INSERT INTO message(uid, peer, text) VALUES (?, 'carol', ?)",
                                 [.text("spill-\(index)"), .text(String(repeating: "s", count: 1_000))])
        }
        try database.execute("UPDATE message SET text = 'changed' WHERE uid = 'kept'")
        let during = try #require(database.journalWriteCounts)
        return (before.written, during.written)
    }

    /// What a process killed in the middle of a big transaction leaves (the file and journal
    /// as the OS has them, records still gathered not among them) rolls back whole.
    @Test func filesLeftInTheMiddleOfATransactionRollBackWhole() throws {
        let directory = TemporaryDirectory()
        let database = try compactDatabase(directory)
        let writes = try spilledTransaction(database)
        #expect(writes.during > writes.before, "the cache spilled: journal and pages went into the files")
        let copy = directory.file("copy.sqlite")
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: directory.file("j.sqlite") + suffix, toPath: copy + suffix)
        }
        try database.execute("ROLLBACK")
        database.close()

        let recovered = try Database(path: copy, configuration: .compact)
        defer { recovered.close() }
        #expect(try recovered.fetchAll("SELECT uid, text FROM message").map { [$0[0], $0[1]] } == [[.text("kept"), .text("before")]])
        try recovered.quickCheck()
    }

    /// A transaction bigger than the 64 KiB cache writes pages into the file before its end
    /// (their journal first), then rolls back: the file reads as before it.
    @Test func aRollbackAfterTheCacheSpilledRestoresTheFile() throws {
        let directory = TemporaryDirectory()
        let database = try compactDatabase(directory)
        let writes = try spilledTransaction(database)
        // The journal went out before the transaction's end: the file's pages were written then.
        #expect(writes.during > writes.before, "no journal write before the end: the cache did not spill")
        try database.execute("ROLLBACK")
        #expect(try database.fetchAll("SELECT uid, text FROM message").map { [$0[0], $0[1]] } == [[.text("kept"), .text("before")]])
        try database.quickCheck()
        database.close()

        let reopened = try Database(path: directory.file("j.sqlite"), configuration: .compact)
        defer { reopened.close() }
        #expect(try reopened.fetchOne("SELECT count(*) FROM message")?[0] == .integer(1))
        try reopened.quickCheck()
    }

    /// The default VFS writes at most 0x1ffff bytes a call and takes a shorter write for a full
    /// disk: a journal gathered past that goes out in several writes, and the commit holds.
    @Test func aJournalLargerThanOneWriteCommitsInSeveral() throws {
        let directory = TemporaryDirectory()
        var configuration = Database.Configuration.compact
        configuration.cacheLimitKiB = 8_192
        let database = try compactDatabase(directory, configuration: configuration)
        defer { database.close() }
        try database.transaction(.immediate) { db in
            for index in 0..<500 {
                try db.execute("INSERT INTO message(uid, peer, text) VALUES (?, 'bob', ?)",
                               [.text("big-\(index)"), .text(String(repeating: "b", count: 1_000))])
            }
        }
        let before = try #require(database.journalWriteCounts)
        // Every page the rows are on is journaled: about 500 KiB of records before the commit.
        try database.transaction(.immediate) { db in try db.execute("UPDATE message SET text = upper(text)") }
        let after = try #require(database.journalWriteCounts)
        #expect(after.written - before.written >= 4, "\(after.written - before.written) writes")
        #expect(try database.fetchOne("SELECT count(*) FROM message WHERE text = upper(text)")?[0] == .integer(500))
        try database.quickCheck()
    }

    /// In WAL mode a commit's frames go out in one write with its last frame; a commit bigger
    /// than one write can carry in several; another connection reads what was committed.
    @Test func aWALCommitWritesItsFramesInOneGo() throws {
        let directory = TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.batchesJournalWrites = true
        let database = try compactDatabase(directory, configuration: configuration)
        defer { database.close() }
        try database.transaction(.immediate) { db in
            try db.execute("INSERT INTO message(uid, peer, text) VALUES ('seed', 'bob', 'x')")
        }
        let before = try #require(database.journalWriteCounts, "the WAL is not open through the VFS")
        let commits = 20
        for index in 0..<commits {
            try database.transaction(.immediate) { db in
                try db.execute("INSERT INTO message(uid, peer, text) VALUES (?, 'bob', 'wal')", [.text("w-\(index)")])
            }
        }
        let small = try #require(database.journalWriteCounts)
        // Three pages a commit (the table, two indexes), each frame a header and a page.
        #expect(small.gathered - before.gathered >= 6 * commits, "\(small.gathered - before.gathered) frame writes gathered")
        #expect(small.written - before.written == commits, "\(small.written - before.written) writes for \(commits) commits")

        try database.transaction(.immediate) { db in
            for index in 0..<500 {
                try db.execute("INSERT INTO message(uid, peer, text) VALUES (?, 'carol', ?)",
                               [.text("c-\(index)"), .text(String(repeating: "c", count: 1_000))])
            }
        }
        let big = try #require(database.journalWriteCounts)
        #expect(big.written - small.written >= 4, "\(big.written - small.written) writes for about 500 KiB of frames")
        let reader = try Database(path: directory.file("j.sqlite"))
        defer { reader.close() }
        #expect(try reader.fetchOne("SELECT count(*) FROM message")?[0] == .integer(Int64(commits + 501)))
        try reader.quickCheck()
    }
}
