import CSQLite
import IMStore
import Testing

struct DatabaseTests {
    @Test func opensInWALModeWithNormalSync() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("a.sqlite"))
        #expect(try database.journalMode() == "wal")
        #expect(try database.fetchOne("PRAGMA synchronous")?[0] == .integer(1))
        #expect(try database.fetchOne("PRAGMA foreign_keys")?[0] == .integer(1))
        database.close()
        // WAL is a property of the file: a plain reopen still reads it.
        var plain = Database.Configuration()
        plain.walMode = false
        #expect(try Database(path: directory.file("a.sqlite"), configuration: plain).journalMode() == "wal")
    }

    @Test func fullSynchronousIsAvailable() throws {
        let directory = TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.synchronous = .full
        let database = try Database(path: directory.file("a.sqlite"), configuration: configuration)
        #expect(try database.fetchOne("PRAGMA synchronous")?[0] == .integer(2))
    }

    @Test func bindsAndReadsEveryType() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("types.sqlite"))
        try database.executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v)")
        let values: [DatabaseValue] = [
            .integer(Int64.min), .integer(Int64.max), .integer(0),
            .real(-1.5), .real(Double.greatestFiniteMagnitude),
            .text(""), .text("héllo, 世界 🙂"), .text("nul\u{0}inside"),
            .blob([]), .blob([0, 1, 2, 255, 0]), .null,
        ]
        for value in values {
            try database.execute("INSERT INTO t(v) VALUES (?)", [value])
        }
        let rows = try database.fetchAll("SELECT v, typeof(v) FROM t ORDER BY id")
        #expect(rows.map { $0[0] } == values)
        #expect(rows.map { $0[1].string } == [
            "integer", "integer", "integer", "real", "real", "text", "text", "text", "blob", "blob", "null",
        ])
        #expect(database.lastInsertRowID == Int64(values.count))
    }

    @Test func statementColumnAccessorsAndTypedBinds() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.prepare("SELECT ?, ?, ?, ?, ? AS last")
        try statement.bind([DatabaseValue(Int64(7)), DatabaseValue(2.25), DatabaseValue("text"), DatabaseValue([9, 8] as [UInt8]), DatabaseValue(nil as String?)])
        #expect(try statement.step())
        #expect(statement.columnCount == 5)
        #expect(statement.columnName(4) == "last")
        #expect(statement.int64(0) == 7)
        #expect(statement.double(1) == 2.25)
        #expect(statement.string(2) == "text")
        #expect(statement.blob(3) == [9, 8])
        #expect(statement.isNull(4))
        #expect(try statement.step() == false)
    }

    @Test func wrongArgumentCountIsARangeError() throws {
        let database = try Database(path: ":memory:")
        #expect(throws: DatabaseError.self) { try database.execute("SELECT ?", []) }
        do {
            try database.execute("SELECT ?, ?", [1])
            Issue.record("bound one value to two parameters")
        } catch {
            #expect(error.code == .range)
        }
    }

    @Test func errorsCarryCodeMessageSQLAndPath() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("errors.sqlite")
        let database = try Database(path: path)
        try database.executeScript("CREATE TABLE u(name TEXT UNIQUE)")
        let insert = "INSERT INTO u(name) VALUES (?)"
        try database.execute(insert, ["alice"])
        do {
            try database.execute(insert, ["alice"])
            Issue.record("duplicate insert succeeded")
        } catch {
            #expect(error.code == .constraint)
            // SQLITE_CONSTRAINT_UNIQUE, a macro Swift cannot import: SQLITE_CONSTRAINT | (8 << 8).
            #expect(error.extendedCode == SQLITE_CONSTRAINT | (8 << 8))
            #expect(error.message.contains("UNIQUE"))
            #expect(error.sql == insert)
            #expect(error.path == path)
            #expect(!error.isCorruption)
        }
        // The cached statement was reset after the failure and works again.
        try database.execute(insert, ["bob"])
        #expect(try database.fetchOne("SELECT count(*) FROM u")?[0] == .integer(2))
    }

    @Test func syntaxErrorsAndSecondStatementsAreRefused() throws {
        let database = try Database(path: ":memory:")
        #expect(throws: DatabaseError.self) { try database.prepare("SELEC 1") }
        do {
            _ = try database.prepare("SELECT 1; SELECT 2")
            Issue.record("two statements prepared as one")
        } catch {
            #expect(error.code == .misuse)
        }
        _ = try database.prepare("SELECT 1;  \n")
    }

    @Test func cachedStatementsAreReusedAndReset() throws {
        let database = try Database(path: ":memory:")
        let first = try database.cachedStatement("SELECT ?")
        try first.bind([5])
        #expect(try first.step())
        let second = try database.cachedStatement("SELECT ?")
        #expect(first === second)
        // Bindings were cleared: the parameter reads NULL again.
        #expect(try second.step())
        #expect(second.isNull(0))
    }

    @Test func closedDatabaseRefusesWork() throws {
        let database = try Database(path: ":memory:")
        database.close()
        #expect(database.isClosed)
        do {
            try database.execute("SELECT 1")
            Issue.record("ran on a closed database")
        } catch {
            #expect(error.code == .misuse)
        }
    }

    @Test func missingFileWithoutCreateCannotOpen() throws {
        let directory = TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.create = false
        do {
            _ = try Database(path: directory.file("absent.sqlite"), configuration: configuration)
            Issue.record("opened a missing file without create")
        } catch {
            #expect(error.code == .cannotOpen)
            #expect(!error.isCorruption)
        }
    }
}
