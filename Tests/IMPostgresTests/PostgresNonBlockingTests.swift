import Glibc
import IMPostgres
import Testing
import TestSupport

/// Statements sent and answered without blocking, driven here by `poll` as an event loop would.
@Suite(.timeLimit(.minutes(1)))
struct PostgresNonBlockingTests {
    /// Sends `sql` and reads until its answer, waiting on the socket between reads; throws the
    /// statement's error.
    private static func run(_ connection: PostgresConnection, _ sql: String, _ parameters: [PostgresValue]) throws -> PostgresResult {
        var flushed = try connection.send(prepared: sql, parameters)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: connection.socket, events: Int16(flushed ? POLLIN : POLLIN | POLLOUT), revents: 0)
            guard poll(&descriptor, 1, 1_000) >= 0 else { continue }
            if !flushed {
                flushed = try connection.flush()
                continue
            }
            if let result = try connection.receive() { return result }
            flushed = try connection.flush()
        }
        throw PostgresError(kind: .connection, message: "no answer within 10 s")
    }

    @Test func aStatementIsPreparedOnceThenAnsweredEachTime() async throws {
        let server = try await PostgresServer.start()
        let (first, second, prepared, busyBetween) = try await server.withConnection { connection in
            try connection.makeNonBlocking()
            let sql = "SELECT $1::bigint * 2 AS twice, $2::text AS word"
            let first = try Self.run(connection, sql, [.integer(21), .text("héllo")])
            let busyBetween = connection.isAwaitingAnswer
            let second = try Self.run(connection, sql, [.integer(-4), .null])
            // The blocking calls work again once nothing is in flight, and see one prepared statement.
            let prepared = try connection.execute("SELECT count(*) FROM pg_prepared_statements").rows[0][0].int64
            return (first, second, prepared, busyBetween)
        }
        #expect(first.columns == ["twice", "word"])
        #expect(first.rows.first?[0].int64 == 42 && first.rows.first?[1].string == "héllo")
        #expect(second.rows.first?[0].int64 == -8 && second.rows.first?[1].isNull == true)
        #expect(prepared == 1)
        #expect(!busyBetween)
    }

    /// A statement the server refuses answers with its SQLSTATE once whole, and the connection
    /// goes on; so does one whose preparation fails.
    @Test func aRefusedStatementLeavesTheConnectionUsable() async throws {
        let server = try await PostgresServer.start()
        let (refused, badSQL, after) = try await server.withConnection { connection in
            try connection.makeNonBlocking()
            let refused = #expect(throws: PostgresError.self) {
                try Self.run(connection, "SELECT 1 / $1::int", [.integer(0)])
            }
            let badSQL = #expect(throws: PostgresError.self) {
                try Self.run(connection, "SELEC nothing", [])
            }
            let after = try Self.run(connection, "SELECT 1 / $1::int", [.integer(1)])
            return (refused, badSQL, after)
        }
        #expect(refused?.kind == .query && refused?.sqlState?.rawValue == "22012")
        #expect(badSQL?.kind == .query && badSQL?.sqlState?.rawValue == "42601")
        #expect(after.rows.first?[0].int64 == 1)
    }

    /// A connection the server ends while a statement runs answers with a connection error.
    @Test func aConnectionEndedMidStatementIsAConnectionError() async throws {
        let server = try await PostgresServer.start()
        let lost = try await server.withConnection { connection in
            try connection.makeNonBlocking()
            return #expect(throws: PostgresError.self) {
                try Self.run(connection, "SELECT pg_terminate_backend(pg_backend_pid()), pg_sleep(5)", [])
            }
        }
        #expect(lost?.kind == .connection)
    }
}
