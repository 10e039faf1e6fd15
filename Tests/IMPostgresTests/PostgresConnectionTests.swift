import IMPostgres
import Testing
import TestSupport

/// One connection against a real PostgreSQL: parameters both ways, errors with their SQLSTATE,
/// transactions, connection options.
@Suite(.timeLimit(.minutes(1)))
struct PostgresConnectionTests {
    @Test func parametersRoundTrip() async throws {
        let server = try await PostgresServer.start()
        let unicode = "héllo ✓ 😀 'quoted' \\ \"; DROP TABLE t; --"
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0x5C, 0x78]
        let row = try await server.withConnection { connection in
            try connection.execute(
                "SELECT $1::text, $2::bigint, $3::bigint, $4::text IS NULL, $5::bytea, $6::boolean, $7::boolean, $8::text, $9::bytea, $4::text",
                [.text(unicode), .integer(.max), .integer(.min), .null, .bytes(bytes), .boolean(true), false, "", .bytes([])]
            ).rows[0]
        }
        #expect(row[0].string == unicode)
        #expect(row[1].int64 == .max)
        #expect(row[2].int64 == .min)
        #expect(row[3].bool == true)
        #expect(row[4].bytes == bytes)
        #expect(row[5].bool == true)
        #expect(row[6].bool == false)
        #expect(row[7].string == "" && !row[7].isNull)
        #expect(row[8].bytes == [])
        #expect(row[9].isNull && row[9].string == nil && row[9].int64 == nil && row[9].bytes == nil)
    }

    @Test func rowsAndAffectedCountsThroughATable() async throws {
        let server = try await PostgresServer.start()
        let (inserted, updated, rows) = try await server.withConnection { connection in
            try connection.executeScript("""
                CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL, body bytea);
                CREATE INDEX items_name ON items (name);
                """)
            var inserted = 0
            for (id, name) in [(1, "ünï"), (2, "b"), (3, "c")] {
                inserted += try connection.execute(
                    "INSERT INTO items (id, name, body) VALUES ($1, $2, $3)", [.integer(Int64(id)), .text(name), .bytes([UInt8(id), 0])]
                ).affectedRows
            }
            let updated = try connection.execute("UPDATE items SET name = name || '!' WHERE id >= $1", [2]).affectedRows
            let rows = try connection.execute("SELECT id, name, body FROM items ORDER BY id").rows
            return (inserted, updated, rows.map { [$0[0].int64.map(String.init) ?? "-", $0[1].string ?? "-", "\($0[2].bytes ?? [])"] })
        }
        #expect(inserted == 3)
        #expect(updated == 2)
        #expect(rows == [["1", "ünï", "[1, 0]"], ["2", "b!", "[2, 0]"], ["3", "c!", "[3, 0]"]])
    }

    @Test func errorsCarryTheirSQLState() async throws {
        let server = try await PostgresServer.start()
        let (duplicate, missing, afterwards) = try await server.withConnection { connection in
            try connection.execute("CREATE TABLE names (name text PRIMARY KEY)")
            try connection.execute("INSERT INTO names VALUES ($1)", ["alice"])
            let duplicate = #expect(throws: PostgresError.self) { try connection.execute("INSERT INTO names VALUES ($1)", ["alice"]) }
            let missing = #expect(throws: PostgresError.self) { try connection.execute("SELECT * FROM nowhere") }
            // The connection stays usable after a statement the server refused.
            return (duplicate, missing, try connection.execute("SELECT count(*) FROM names").rows[0][0].int64)
        }
        #expect(duplicate?.kind == .query)
        #expect(duplicate?.sqlState == .uniqueViolation)
        #expect(duplicate?.message.contains("duplicate key") == true)
        #expect(missing?.sqlState == .undefinedTable)
        #expect(afterwards == 1)
        #expect(SQLState.serializationFailure.isRetryableTransactionFailure && SQLState.deadlockDetected.isRetryableTransactionFailure)
        #expect(!SQLState.uniqueViolation.isRetryableTransactionFailure)
    }

    @Test func transactionsCommitOrRollBack() async throws {
        struct Refused: Error {}
        let server = try await PostgresServer.start()
        let (value, names, swallowed) = try await server.withConnection { connection in
            try connection.execute("CREATE TABLE names (name text PRIMARY KEY)")
            let value = try connection.transaction { connection in
                try connection.execute("INSERT INTO names VALUES ('kept')")
                return 42
            }
            #expect(throws: Refused.self) {
                try connection.transaction { connection in
                    try connection.execute("INSERT INTO names VALUES ('dropped')")
                    throw Refused()
                }
            }
            // A failed statement caught inside makes COMMIT a rollback: that must not pass for success.
            let swallowed = #expect(throws: PostgresError.self) {
                try connection.transaction { connection in
                    try connection.execute("INSERT INTO names VALUES ('also dropped')")
                    _ = try? connection.execute("INSERT INTO names VALUES ('kept')")
                }
            }
            return (value, try connection.execute("SELECT name FROM names ORDER BY name").rows.map { $0[0].string }, swallowed)
        }
        #expect(value == 42)
        #expect(names == ["kept"])
        #expect(swallowed?.kind == .query)
    }

    @Test func connectionOptions() async throws {
        let server = try await PostgresServer.start()
        let defaults = try await server.withConnection { connection in
            try connection.execute("SELECT current_setting('application_name'), current_setting('client_encoding')").rows[0]
        }
        #expect(defaults[0].string == "imserver")
        #expect(defaults[1].string == "UTF8")
        // Unless the string sets another, an attempt gives up after the default timeout rather than never.
        let timeouts = try await server.withConnection { connection in
            ["connect_timeout", "keepalives_idle", "nonexistent"].map { connection.option($0) }
        }
        #expect(timeouts == [String(PostgresConnection.defaultConnectTimeout), "30", nil])
        // A transaction left waiting (its client frozen or cut off) does not hold its locks for good.
        let idle = try await server.withConnection { connection in
            try connection.execute("SELECT current_setting('idle_in_transaction_session_timeout')").rows[0][0].string
        }
        #expect(idle == "\(PostgresConnection.idleInTransactionTimeout)s")
        let keywords = "host=127.0.0.1 port=\(server.stock.port) user=postgres dbname=postgres application_name=other"
        let named = try await server.withConnection(keywords) { connection in
            try connection.execute("SELECT current_setting('application_name')").rows[0][0].string
        }
        #expect(named == "other")
        let database = try server.stock.createDatabase("second")
        let current = try await server.withConnection(database + "?application_name=uri&connect_timeout=3") { connection in
            try connection.execute("SELECT current_database(), current_setting('application_name')").rows[0].cells.map(\.string)
                + [connection.option("connect_timeout")]
        }
        #expect(current == ["second", "uri", "3"])

        #expect(PostgresConnection.validate(keywords) == nil)
        #expect(PostgresConnection.validate("postgres://u@h:5432/db?sslmode=disable") == nil)
        #expect(PostgresConnection.validate("bogus_option=1")?.contains("bogus_option") == true)
        #expect(PostgresConnection.validate("host='unterminated") != nil)
    }

    @Test func refusedConnectionIsAConnectionError() async throws {
        let closed = try LoopbackPortHold()
        defer { closed.release() }
        let port = closed.port
        let error = await #expect(throws: PostgresError.self) {
            try await offPool { _ = try PostgresConnection.connect("postgres://postgres@127.0.0.1:\(port)/postgres") }
        }
        #expect(error?.kind == .connection)
        #expect(error?.message.isEmpty == false)
    }
}
