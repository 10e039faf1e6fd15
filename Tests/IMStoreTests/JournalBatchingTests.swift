import TestSupport
import Testing
@testable import IMStore

/// The compact configuration's rollback journal goes out a commit at a time
/// (`JournalBatchingVFS`), and stays a journal: what it protects can be rolled back, from
/// memory or from the file, and a committed file reads back whole.
struct JournalBatchingTests {
    private func compactDatabase(_ directory: TemporaryDirectory) throws -> Database {
        let database = try Database(path: directory.file("j.sqlite"), configuration: .compact)
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
        // Three pages a commit (the table, and two indexes), each journaled as three writes.
        #expect(gathered >= 9 * commits, "\(gathered) journal writes gathered")
        #expect(written == commits, "\(written) writes for \(commits) commits")
        #expect(try database.fetchOne("SELECT count(*) FROM message")?[0] == .integer(Int64(commits + 1)))
    }

    /// A transaction bigger than the 64 KiB cache writes pages into the file before its end
    /// (their journal first), then rolls back: the file reads as before it.
    @Test func aRollbackAfterTheCacheSpilledRestoresTheFile() throws {
        let directory = TemporaryDirectory()
        let database = try compactDatabase(directory)
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
        // The journal went out before the transaction's end: the file's pages were written then.
        let during = try #require(database.journalWriteCounts)
        #expect(during.written > before.written, "no journal write before the end: the cache did not spill")
        try database.execute("ROLLBACK")
        #expect(try database.fetchAll("SELECT uid, text FROM message").map { [$0[0], $0[1]] } == [[.text("kept"), .text("before")]])
        try database.quickCheck()
        database.close()

        let reopened = try Database(path: directory.file("j.sqlite"), configuration: .compact)
        defer { reopened.close() }
        #expect(try reopened.fetchOne("SELECT count(*) FROM message")?[0] == .integer(1))
        try reopened.quickCheck()
    }
}
