import Foundation
import IMProcess
import IMStore
import TestSupport
import Testing

/// `DescriptionLockVFS`: a compact database locks with its own descriptor's locks, and those
/// exclude a stock SQLite (Python's, POSIX locks) in another process both ways, and another
/// connection of this process, step by step as SQLite's locking protocol goes.
struct DescriptionLockVFSTests {
    /// A connection that neither waits for a lock nor keeps one between transactions.
    private static func plain(descriptionLocks: Bool) -> Database.Configuration {
        var configuration = Database.Configuration()
        configuration.journalMode = .persist
        configuration.busyTimeoutMilliseconds = 0
        configuration.descriptionLocks = descriptionLocks
        return configuration
    }

    @Test func aStockSQLiteInAnotherProcessIsKeptOutWhileTheFileIsOpen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("held.sqlite")
        let owner = try Database(path: path, configuration: .compact)
        try owner.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        #expect(try Self.lockKinds(path) == ["OFDLCK"])
        #expect(try Self.python(["read", path]).hasPrefix("error: database is locked"))
        owner.close()
        #expect(try Self.python(["read", path]) == "1")
    }

    @Test func aStockSQLitesLockInAnotherProcessKeepsThisOneOut() throws {
        let directory = TemporaryDirectory()
        let path = try Self.file(in: directory, "theirs.sqlite", made: "CREATE TABLE t(x)")
        let held = directory.file("held"), release = directory.file("release")
        let child = try ChildProcess.spawn("/usr/bin/env", ["python3", "-c", Self.script, "hold", path, held, release])
        defer { _ = child.wait() }
        defer { _ = FileManager.default.createFile(atPath: release, contents: nil) }
        try Self.waitFor(held)
        var compact = Database.Configuration.compact
        compact.busyTimeoutMilliseconds = 0
        compact.create = false
        #expect(throws: DatabaseError.self) { _ = try Database(path: path, configuration: compact).fetchOne("SELECT count(*) FROM t") }
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        #expect(child.wait() == .exited(0))
        // Python's transaction committed once let go, and this process sees its row.
        #expect(try Database(path: path, configuration: compact).fetchOne("SELECT x FROM t")?[0] == .integer(7))
    }

    /// A file another program put in WAL mode needs the default VFS's shared memory: it opens
    /// there, is turned back to a rollback journal, and the next open locks through the VFS.
    @Test func aFileInWALModeOpensThroughTheDefaultVFSOnce() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("wal.sqlite")
        let other = try Database(path: path)
        try other.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        #expect(try other.journalMode() == "wal")
        other.close()
        let first = try Database(path: path, configuration: .compact)
        #expect(try first.fetchOne("SELECT x FROM t")?[0] == .integer(1))
        #expect(try first.journalMode() == "persist")
        #expect(try Self.lockKinds(path) == ["POSIX"])
        first.close()
        let again = try Database(path: path, configuration: .compact)
        try again.executeScript("INSERT INTO t VALUES (2)")
        #expect(try Self.lockKinds(path) == ["OFDLCK"])
    }

    /// Two connections of one process, both through the VFS: a reader's shared lock lets a
    /// writer reserve but not commit; the writer's pending lock keeps a new reader out, and
    /// the commit goes through once the reader has gone.
    @Test func twoConnectionsOfOneProcessFollowTheLockingSteps() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("steps.sqlite")
        let reader = try Database(path: path, configuration: Self.plain(descriptionLocks: true))
        try reader.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let writer = try Database(path: path, configuration: Self.plain(descriptionLocks: true))
        try reader.executeScript("BEGIN; SELECT count(*) FROM t")
        try writer.executeScript("BEGIN IMMEDIATE; INSERT INTO t VALUES (2)")
        // Reserved: a second writer is refused at once.
        let third = try Database(path: path, configuration: Self.plain(descriptionLocks: true))
        #expect(throws: DatabaseError.self) { try third.executeScript("BEGIN IMMEDIATE") }
        #expect(throws: DatabaseError.self) { try writer.executeScript("COMMIT") }
        // The writer now holds the pending byte: no new reader.
        #expect(throws: DatabaseError.self) { _ = try third.fetchOne("SELECT count(*) FROM t") }
        try reader.executeScript("COMMIT")
        try writer.executeScript("COMMIT")
        #expect(try third.fetchOne("SELECT count(*) FROM t")?[0] == .integer(2))
    }

    /// A process killed in the middle of a transaction leaves a hot journal; the next
    /// connection through the VFS sees no writer holding it and rolls it back.
    @Test func aHotJournalLeftByAKilledWriterIsRolledBack() throws {
        let directory = TemporaryDirectory()
        let path = try Self.file(in: directory, "hot.sqlite", made: "CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        let output = try ChildProcess.run("/usr/bin/env", ["python3", "-c", Self.script, "die", path], timeout: .seconds(30))
        #expect(output.termination == .exited(0))
        #expect(try Database(path: path, configuration: .compact).fetchOne("SELECT count(*), sum(x) FROM t")?.values
            == [.integer(1), .integer(1)])
    }

    /// A compact database `name` in `directory`, made by `script` and closed; its path.
    private static func file(in directory: TemporaryDirectory, _ name: String, made script: String) throws -> String {
        let path = directory.file(name)
        let database = try Database(path: path, configuration: .compact)
        try database.executeScript(script)
        database.close()
        return path
    }

    /// The kinds of lock (`POSIX`, `OFDLCK`) held on the file at `path`, from /proc/locks.
    private static func lockKinds(_ path: String) throws -> Set<String> {
        let inode = try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? UInt64)
        let table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return Set(table.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count > 5, fields[5].hasSuffix(":\(inode)") else { return nil }
            return String(fields[1])
        })
    }

    private static func python(_ arguments: [String]) throws -> String {
        let output = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script] + arguments, timeout: .seconds(30))
        return String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func waitFor(_ path: String) throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: path) {
            guard ContinuousClock.now < deadline else { throw TestFailure("\(path) never appeared") }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Python's sqlite3 (the system's SQLite, POSIX locks): `read PATH` prints the count or
    /// the error; `hold PATH HELD RELEASE` inserts 7 in an exclusive transaction, makes HELD
    /// and commits once RELEASE exists; `die PATH` writes pages past its journal and ends
    /// without committing or closing (os._exit), as a killed writer does.
    static let script = """
        import os, sqlite3, sys, time
        mode, path = sys.argv[1], sys.argv[2]
        db = sqlite3.connect(path, timeout=0, isolation_level=None)
        if mode == 'read':
            try: print(db.execute('SELECT count(*) FROM t').fetchone()[0])
            except sqlite3.OperationalError as error: print('error: %s' % error)
        elif mode == 'hold':
            db.execute('BEGIN EXCLUSIVE'); db.execute('INSERT INTO t VALUES (7)')
            open(sys.argv[3], 'w').close()
            deadline = time.time() + 20
            while not os.path.exists(sys.argv[4]) and time.time() < deadline: time.sleep(0.01)
            db.execute('COMMIT')
        elif mode == 'die':
            db.execute('PRAGMA cache_size=1'); db.execute('BEGIN')
            db.execute("INSERT INTO t SELECT 2 FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i FROM n)")
            os._exit(0)
        """
}
