import TestSupport
import Testing
@testable import IMStore

/// The page cache wrapper (`TrackedPageCache`): a rebalance's parking number does not hold
/// the bound up, and a truncation that has pages to drop still drops them.
struct TrackedPageCacheTests {
    @Test func aParkedPageLeavesTheBoundWhereTheFileEnds() {
        var bound = PageKeyBound(pageSize: 2048)
        #expect(bound.parkingKey == 524_289)
        for key in 1...40 as ClosedRange<UInt32> { bound.fetched(key) }
        // balance_nonroot: A to the parking number, B to A's, A to B's.
        bound.renumbered(to: bound.parkingKey)
        bound.renumbered(to: 12)
        bound.renumbered(to: 30)
        #expect(bound.highest == 40)
        #expect(!bound.mayHold(from: 41), "a commit with the file at 40 pages has nothing to drop")
        #expect(bound.mayHold(from: 40))
    }

    @Test func aTruncationLowersTheBoundAndGrowthRaisesItAgain() {
        var bound = PageKeyBound(pageSize: 4096)
        for key in 1...100 as ClosedRange<UInt32> { bound.fetched(key) }
        bound.truncated(from: 61)
        #expect(bound.highest == 60)
        #expect(!bound.mayHold(from: 61))
        bound.fetched(75)
        #expect(bound.mayHold(from: 61))
        bound.renumbered(to: 200)
        #expect(bound.highest == 200)
    }

    @Test func sqliteUsesTheWrapper() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("w.sqlite"))
        defer { database.close() }
        _ = try database.fetchOnce("SELECT 1")
        #expect(TrackedPageCache.isInstalled)
    }

    /// When another connection has committed, SQLite empties this connection's cache (a
    /// truncation from page 1) before it reads again: skipped, the old pages would be read.
    @Test func anotherConnectionsCommitIsReadNotTheCachedPages() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("two.sqlite")
        let reader = try Database(path: path)
        defer { reader.close() }
        try reader.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        try reader.transaction(.immediate) { db in
            for index in 0..<200 { try db.execute("INSERT INTO t(id, v) VALUES (?, 'old')", [.integer(Int64(index))]) }
        }
        #expect(try reader.fetchOne("SELECT count(*) FROM t WHERE v = 'old'")?[0] == .integer(200))
        let writer = try Database(path: path)
        try writer.execute("UPDATE t SET v = 'new'")
        writer.close()
        #expect(try reader.fetchOne("SELECT count(*) FROM t WHERE v = 'new'")?[0] == .integer(200))
    }

    /// A transaction that grows the file and rolls back leaves cached pages past the file's
    /// end; they must go, or the file's next growth would find them with the old contents.
    /// Random keys make the indexes rebalance, parking pages on the way.
    @Test func growthRolledBackThenRegrownReadsBackWhole() throws {
        let directory = TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.pageSize = 2048
        configuration.cacheLimitKiB = 16_384
        let database = try Database(path: directory.file("g.sqlite"), configuration: configuration)
        defer { database.close() }
        try database.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v TEXT NOT NULL)")
        var generator = SystemRandomNumberGenerator()
        func key() -> String { String(UInt64.random(in: 0...UInt64.max, using: &generator), radix: 36) }
        for _ in 0..<20 {
            try database.transaction(.immediate) { db in
                for _ in 0..<100 { try db.execute("INSERT INTO t(k, v) VALUES (?, ?)", [.text(key()), .text(String(repeating: "a", count: 60))]) }
            }
        }
        try database.execute("BEGIN IMMEDIATE")
        for _ in 0..<500 { try database.execute("INSERT INTO t(k, v) VALUES (?, ?)", [.text(key()), .text(String(repeating: "r", count: 300))]) }
        try database.execute("ROLLBACK")
        try database.transaction(.immediate) { db in
            for _ in 0..<500 { try db.execute("INSERT INTO t(k, v) VALUES (?, ?)", [.text(key()), .text(String(repeating: "b", count: 300))]) }
        }
        #expect(try database.fetchOnce("PRAGMA integrity_check").first?[0].string == "ok")
        #expect(try database.fetchOne("SELECT count(*) FROM t WHERE v LIKE 'r%'")?[0] == .integer(0))
        #expect(try database.fetchOne("SELECT count(*) FROM t")?[0] == .integer(2_500))
    }
}
