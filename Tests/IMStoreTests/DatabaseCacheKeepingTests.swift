import IMStore
import TestSupport
import Testing

/// A connection that gives its page cache back after each transaction keeps it while busy
/// when its queue has a place for it, and gives it back once idle or when no place is free.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseCacheKeepingTests {
    private func open(_ path: String, keeping: DatabaseQueue.CacheKeeping?) async throws -> DatabaseQueue {
        var migrator = DatabaseMigrator()
        migrator.register("t") { try $0.executeScript("CREATE TABLE t(x INTEGER PRIMARY KEY, y TEXT)") }
        let closing = DatabaseQueue.IdleClosing(after: .seconds(3600), crowd: 1_000_000, cacheKeeping: keeping)
        return try await DatabaseQueue.open(path: path, configuration: .compact, migrator: migrator, idleClosing: closing).queue
    }

    /// Whether the connection still holds pages a release would free, after a write, seen from
    /// the next use (which reads nothing). The check gives them back.
    private func keptAfterWrite(_ queue: DatabaseQueue, _ value: Int) async throws -> Bool {
        try await queue.write { try $0.execute("INSERT INTO t(x, y) VALUES (?, 'row')", [.integer(Int64(value))]) }
        return try await queue.run(held)
    }

    @Sendable private func held(_ database: Database) -> Bool {
        let before = database.cacheMemoryUsed
        database.releaseMemory()
        return database.cacheMemoryUsed < before
    }

    @Test func aBusyConnectionKeepsItsCache() async throws {
        let directory = TemporaryDirectory()
        let places = DatabaseQueue.CacheKeeping.Places(limit: 4)
        let queue = try await open(directory.file("busy.sqlite"), keeping: .init(idle: .seconds(3600), places: places))
        #expect(try await keptAfterWrite(queue, 1), "kept after the transaction")
        #expect(await queue.keepsCache)
        #expect(places.count == 1)
        #expect(try await keptAfterWrite(queue, 2), "still one place for the same connection")
        #expect(places.count == 1)
        #expect(try await queue.read { try $0.fetchOnce("SELECT count(*) FROM t").first?[0].int64 } == 2)
        await queue.close()
        #expect(places.count == 0, "a closed connection gives its place back")
    }

    /// The place a use took (each use takes one while one is free) goes back once the
    /// connection has been idle for `idle`, and the cache with it.
    @Test func anIdleConnectionGivesItsCacheBack() async throws {
        let directory = TemporaryDirectory()
        let places = DatabaseQueue.CacheKeeping.Places(limit: 4)
        let queue = try await open(directory.file("idle.sqlite"), keeping: .init(idle: .milliseconds(200), places: places))
        try await queue.write { try $0.execute("INSERT INTO t(x, y) VALUES (1, 'row')") }
        #expect(await eventually(within: .seconds(10)) { await queue.keepsCache == false })
        #expect(places.count == 0)
        #expect(try await queue.run(held) == false, "given back once idle")
        await queue.close()
    }

    @Test func withoutAFreePlaceTheCacheIsGivenBackAfterEachUse() async throws {
        let directory = TemporaryDirectory()
        let places = DatabaseQueue.CacheKeeping.Places(limit: 1)
        let keeping = DatabaseQueue.CacheKeeping(idle: .seconds(3600), places: places)
        let first = try await open(directory.file("first.sqlite"), keeping: keeping)
        let second = try await open(directory.file("second.sqlite"), keeping: keeping)
        #expect(try await keptAfterWrite(first, 1))
        #expect(try await keptAfterWrite(second, 1) == false, "the only place is taken")
        #expect(await second.keepsCache == false)
        // Closing the first frees its place for the second.
        await first.close()
        #expect(places.count == 0)
        #expect(try await keptAfterWrite(second, 2))
        await second.close()
        #expect(places.count == 0, "a closed connection gives its place back")
    }

    @Test func withoutKeepingTheCacheGoesBackAfterEachTransaction() async throws {
        let directory = TemporaryDirectory()
        let queue = try await open(directory.file("plain.sqlite"), keeping: nil)
        #expect(try await keptAfterWrite(queue, 1) == false)
        #expect(await queue.keepsCache == false)
        await queue.close()
    }

    @Test func anIdleClosedConnectionGivesItsPlaceBack() async throws {
        let directory = TemporaryDirectory()
        let places = DatabaseQueue.CacheKeeping.Places(limit: 1)
        var migrator = DatabaseMigrator()
        migrator.register("t") { try $0.executeScript("CREATE TABLE t(x INTEGER PRIMARY KEY, y TEXT)") }
        let closing = DatabaseQueue.IdleClosing(
            after: .seconds(2), crowd: 1_000_000, cacheKeeping: .init(idle: .seconds(3600), places: places))
        let queue = try await DatabaseQueue.open(
            path: directory.file("closing.sqlite"), configuration: .compact, migrator: migrator, idleClosing: closing).queue
        try await queue.write { try $0.execute("INSERT INTO t(x, y) VALUES (1, 'row')") }
        #expect(places.count == 1, "the use took the place")
        #expect(await eventually(within: .seconds(10)) { await queue.isIdleClosed })
        #expect(places.count == 0, "closing for idleness gave it back")
        try await queue.write { try $0.execute("INSERT INTO t(x, y) VALUES (2, 'row')") }
        #expect(places.count == 1, "opened again, it takes a place again")
        await queue.close()
        #expect(places.count == 0)
    }

    /// A cache given back while the file stays open is kept again at the next use, and given
    /// back again after `idle`, not only when the file closes.
    @Test func aCacheKeptAgainIsGivenBackAgain() async throws {
        let directory = TemporaryDirectory()
        let places = DatabaseQueue.CacheKeeping.Places(limit: 4)
        let queue = try await open(directory.file("again.sqlite"), keeping: .init(idle: .milliseconds(200), places: places))
        for round in 1...2 {
            try await queue.write { try $0.execute("INSERT INTO t(x, y) VALUES (?, 'row')", [.integer(Int64(round))]) }
            #expect(await eventually(within: .seconds(10)) { await queue.keepsCache == false }, "round \(round)")
            #expect(places.count == 0)
        }
        await queue.close()
    }
}
