import Foundation
import IMPostgres
import Synchronization
import Testing
import TestSupport

/// The pool against a real PostgreSQL: at most `size` connections, transactions retried after
/// a serialization failure, connection errors during an outage and recovery after it.
@Suite(.timeLimit(.minutes(1)))
struct PostgresPoolTests {
    @Test func boundsItsConnections() async throws {
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url + "?application_name=pooltest", size: 3)
        let inFlight = Counter()
        let seen = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.run { connection in
                        inFlight.increment()
                        defer { inFlight.decrement() }
                        // The first jobs wait for each other (up to 5 s), so that the pool's
                        // whole size is in use at once however slowly a busy machine starts them.
                        let deadline = ContinuousClock.now + .seconds(5)
                        while inFlight.peak < 3, ContinuousClock.now < deadline { usleep(5_000) }
                        try connection.execute("SELECT pg_sleep(0.05)")
                        return try connection.execute(
                            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", ["pooltest"]).rows[0][0].int64 ?? -1
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0.append($1) }
        }
        #expect(seen.count == 12)
        #expect(seen.allSatisfy { (1...3).contains($0) })
        #expect(seen.max() == 3)
        #expect(inFlight.peak == 3)
        await pool.close()
        let closed = await #expect(throws: PostgresError.self) { try await pool.run { _ in 1 } }
        #expect(closed?.kind == .connection && closed?.message == "pool closed")
        // Closing ended the connections, on the server's side too (which notices a moment later).
        var remaining: Int64? = -1
        let deadline = ContinuousClock.now + .seconds(5)
        while remaining != 0, ContinuousClock.now < deadline {
            remaining = try await server.withConnection { connection in
                try connection.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pooltest'").rows[0][0].int64
            }
        }
        #expect(remaining == 0)
    }

    @Test func closeFinishesQueuedWork() async throws {
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url, size: 1)
        let finished = Counter()
        let tasks = (0..<5).map { _ in
            Task { try await pool.run { connection in
                try connection.execute("SELECT pg_sleep(0.02)")
                finished.increment()
            } }
        }
        while finished.value == 0 { try await Task.sleep(for: .milliseconds(5)) }
        await pool.close()
        for task in tasks { try await task.value }
        #expect(finished.value == 5)
    }

    /// Two SERIALIZABLE transactions read the same row, then both write it: the server fails
    /// one (40001), and the pool runs it again in a new transaction, which sees the other's write.
    @Test(arguments: [5, 1])
    func retriesSerializationFailures(attempts: Int) async throws {
        let server = try await PostgresServer.start()
        try await server.withConnection { connection in
            try connection.executeScript("CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO counter VALUES (1, 0);")
        }
        let pool = PostgresPool(conninfo: server.stock.url, size: 2)
        let bodies = Counter()
        let readers = Counter()
        let increment: @Sendable (PostgresConnection) throws -> Int64 = { connection in
            let body = bodies.increment()
            try connection.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
            let value = try connection.execute("SELECT n FROM counter WHERE id = 1").rows[0][0].int64!
            if body <= 2 {
                // The first two wait until both have read, so that they conflict.
                readers.increment()
                let deadline = ContinuousClock.now + .seconds(5)
                while readers.value < 2, ContinuousClock.now < deadline { usleep(1_000) }
            }
            try connection.execute("UPDATE counter SET n = $1 WHERE id = 1", [.integer(value + 1)])
            return value + 1
        }
        let transaction = { @Sendable () async -> Result<Int64, any Error> in
            do { return .success(try await pool.transaction(attempts: attempts, increment)) } catch { return .failure(error) }
        }
        async let first = transaction()
        async let second = transaction()
        let results = await [first, second]
        let final = try await pool.run { try $0.execute("SELECT n FROM counter").rows[0][0].int64 }
        await pool.close()
        let failures = results.compactMap { result -> PostgresError? in
            if case .failure(let error) = result { return error as? PostgresError }
            return nil
        }
        if attempts == 1 {
            #expect(bodies.value == 2)
            #expect(failures.map(\.sqlState) == [SQLState.serializationFailure])
            #expect(final == 1)
        } else {
            #expect(bodies.value == 3)
            #expect(failures.isEmpty)
            #expect(Set(results.compactMap { try? $0.get() }) == [1, 2])
            #expect(final == 2)
        }
    }

    @Test func otherErrorsAreNotRetried() async throws {
        struct Refused: Error {}
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url, size: 1)
        let bodies = Counter()
        await #expect(throws: Refused.self) {
            try await pool.transaction { _ -> Int in
                bodies.increment()
                throw Refused()
            }
        }
        _ = try await pool.run { try $0.execute("CREATE TABLE t (id int PRIMARY KEY)") }
        let unique = await #expect(throws: PostgresError.self) {
            try await pool.transaction { connection in
                bodies.increment()
                try connection.execute("INSERT INTO t VALUES (1)")
                try connection.execute("INSERT INTO t VALUES (1)")
            }
        }
        let rows = try await pool.run { try $0.execute("SELECT count(*) FROM t").rows[0][0].int64 }
        await pool.close()
        #expect(bodies.value == 2)
        #expect(unique?.sqlState == .uniqueViolation)
        #expect(rows == 0)
    }

    /// Every connection the pool makes carries the setup's settings; a setup PostgreSQL refuses
    /// fails the call as a connection that cannot be made does, with PostgreSQL's reason.
    @Test func eachConnectionRunsTheSetupOnceMade() async throws {
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url, size: 2, setup: "SET plan_cache_mode = force_generic_plan")
        let modes = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await pool.run { connection in
                        try connection.execute("SELECT pg_sleep(0.02)")
                        return try connection.execute("SHOW plan_cache_mode").rows[0][0].string
                    }
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        await pool.close()
        #expect(modes == Array(repeating: "force_generic_plan", count: 6))
        let refused = PostgresPool(conninfo: server.stock.url, size: 1, setup: "SET plan_cache_mode = sometimes")
        let error = await #expect(throws: PostgresError.self) { try await refused.run { _ in 1 } }
        #expect(error?.message.contains("plan_cache_mode") == true, "\(String(describing: error))")
        await refused.close()
    }

    /// One call after another: the thread idle the shortest takes each, so one connection
    /// serves them all (handed round, each of the four would have been opened and used).
    @Test func callsOneAfterAnotherShareOneConnection() async throws {
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url, size: 4)
        var backends: Set<Int64> = []
        for _ in 0..<12 {
            backends.insert(try await pool.run { try $0.execute("SELECT pg_backend_pid()").rows[0][0].int64 ?? -1 })
        }
        // Busy, the others still come in: three calls at once take three connections.
        let together = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await pool.run { connection in
                        try connection.execute("SELECT pg_sleep(0.05)")
                        return try connection.execute("SELECT pg_backend_pid()").rows[0][0].int64 ?? -1
                    }
                }
            }
            return try await group.reduce(into: Set<Int64>()) { $0.insert($1) }
        }
        await pool.close()
        #expect(backends.count == 1)
        #expect(together.count == 3)
    }

    @Test func rollsBackWhatACallLeftOpen() async throws {
        let server = try await PostgresServer.start()
        let pool = PostgresPool(conninfo: server.stock.url, size: 1)
        _ = try await pool.run { connection in
            try connection.execute("CREATE TABLE t (id int)")
            try connection.execute("BEGIN")
            return try connection.execute("INSERT INTO t VALUES (1)")
        }
        // Same thread, same connection: inside the left transaction it would see its own row.
        let count = try await pool.run { try $0.execute("SELECT count(*) FROM t").rows[0][0].int64 }
        await pool.close()
        #expect(count == 0)
    }

    @Test func connectionErrorsDuringAnOutage() async throws {
        let server = try await PostgresServer.start()
        // One thread, so that every call meets the same connection.
        let pool = PostgresPool(conninfo: server.stock.url, size: 1)
        let select = { @Sendable (connection: PostgresConnection) throws -> Int64? in try connection.execute("SELECT 7").rows[0][0].int64 }
        #expect(try await pool.run(select) == 7)
        // The connection the restart closed is found broken and replaced before the next call uses it.
        server.stock.stop()
        try server.stock.restart()
        #expect(try await pool.run(select) == 7)

        server.stock.stop()
        for _ in 0..<3 {
            let error = await #expect(throws: PostgresError.self) { try await pool.run(select) }
            #expect(error?.kind == .connection)
        }
        try server.stock.restart()
        #expect(try await pool.run(select) == 7)

        // A crash: the postmaster is killed; its backends end by themselves a moment later.
        server.stock.kill()
        var outage: PostgresError?
        let deadline = ContinuousClock.now + .seconds(10)
        while outage == nil, ContinuousClock.now < deadline {
            do {
                _ = try await pool.run(select)
                try await Task.sleep(for: .milliseconds(20))
            } catch let error as PostgresError {
                outage = error
            }
        }
        #expect(outage?.kind == .connection)
        try server.stock.restart()
        #expect(try await pool.run(select) == 7)
        await pool.close()
    }
}
