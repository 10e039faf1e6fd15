import CSQLite
#if canImport(Glibc)
import Glibc
#endif
import IMStore
import TestSupport
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
        plain.journalMode = nil
        #expect(try Database(path: directory.file("a.sqlite"), configuration: plain).journalMode() == "wal")
    }

    /// A file SQLite cannot open says why, in the default VFS and in the compact one: here a
    /// path under a plain file (ENOTDIR); out of descriptors it is "Too many open files".
    @Test(arguments: [Database.Configuration(), .compact])
    func aFileThatCannotOpenSaysWhy(_ configuration: Database.Configuration) throws {
        let directory = TemporaryDirectory()
        let plain = directory.file("plain")
        #expect(creat(plain, 0o600) >= 0)
        do {
            _ = try Database(path: plain + "/a.sqlite", configuration: configuration)
            Issue.record("opened a database under a plain file")
        } catch {
            #expect(error.code == .cannotOpen)
            #expect(error.systemErrorCode == ENOTDIR)
            #expect(error.description.contains("unable to open database file (Not a directory, errno \(ENOTDIR))"))
        }
    }

    /// A compact database keeps its lock between transactions: no other connection gets in
    /// while it is open, one does once it closes; a read-only compact reader keeps none.
    @Test func compactKeepsItsLockWhileOpen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("c.sqlite")
        let owner = try Database(path: path, configuration: .compact)
        #expect(try owner.fetchOne("PRAGMA main.locking_mode")?[0] == .text("exclusive"))
        try owner.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        var other = Database.Configuration()
        other.journalMode = nil
        other.busyTimeoutMilliseconds = 0
        #expect(throws: DatabaseError.self) { _ = try Database(path: path, configuration: other).fetchOne("SELECT x FROM t") }
        owner.close()
        var reader = Database.Configuration.compact
        reader.readOnly = true
        reader.journalMode = nil
        let first = try Database(path: path, configuration: reader)
        #expect(try first.fetchOne("SELECT x FROM t")?[0] == .integer(1))
        // The reader holds nothing between its reads: a writer gets in beside it.
        let writer = try Database(path: path, configuration: other)
        try writer.executeScript("INSERT INTO t VALUES (2)")
        #expect(try first.fetchOne("SELECT count(*) FROM t")?[0] == .integer(2))
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

    /// Long SQL is found by where its text is stored, and only ever used for the same text.
    @Test func cachedStatementsAreFoundByTextWhereverItIsStored() throws {
        let database = try Database(path: ":memory:")
        let written = "SELECT ?1 + 1 AS answer, 'a constant long enough to have storage of its own'"
        let constant = try database.cachedStatement(written)
        // The same text in other storage finds the same statement.
        let rebuilt = try database.cachedStatement(String(decoding: Array(written.utf8), as: UTF8.self))
        #expect(rebuilt === constant)
        // Other text, each built in turn (so a freed string's storage may come back), never
        // finds a statement compiled for different SQL.
        for number in 0..<200 {
            let sql = String(decoding: Array("SELECT \(number) AS n, 'padding for the storage of its own'".utf8), as: UTF8.self)
            let statement = try database.cachedStatement(sql)
            #expect(statement.sql == sql)
            #expect(try statement.step())
            #expect(statement.int64(0) == Int64(number))
            statement.reset()
        }
        #expect(try database.cachedStatement(written).sql == written)
    }

    /// `:memory:` is SQLite's name for a database in memory, not a file to create.
    @Test func anInMemoryDatabaseLeavesNoFileBehind() throws {
        // In the working directory: what the bug left behind there, if an earlier run had it.
        unlink(":memory:")
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(x)")
        database.close()
        #expect(access(":memory:", F_OK) != 0)
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

struct CompactConfigurationTests {
    @Test func journalsInPlaceWithoutSyncAndGivesTheCacheBackAfterEachTransaction() throws {
        let directory = TemporaryDirectory()
        let compact = try Database(path: directory.file("compact.sqlite"), configuration: .compact)
        #expect(try compact.journalMode() == "persist")
        #expect(try compact.fetchOnce("PRAGMA synchronous").first?[0] == .integer(0))
        #expect(try compact.fetchOnce("PRAGMA cache_size").first?[0] == .integer(-64))
        let roomy = try Database(path: directory.file("roomy.sqlite"))
        for database in [compact, roomy] {
            try database.executeScript("CREATE TABLE t(x TEXT)")
            try database.transaction { database in
                for index in 0..<2000 { try database.execute("INSERT INTO t VALUES (?)", [.text("row \(index) padding")]) }
            }
        }
        // The default keeps the pages it read; compact holds at most a page or two between transactions.
        #expect(roomy.cacheMemoryUsed > 40_000)
        #expect(compact.cacheMemoryUsed < 10_000)
        // What was committed is there for a second connection, and the journal file stays.
        compact.close()
        #expect(access(directory.file("compact.sqlite-journal"), F_OK) == 0)
        var plain = Database.Configuration()
        plain.journalMode = nil
        let reader = try Database(path: directory.file("compact.sqlite"), configuration: plain)
        #expect(try reader.fetchOnce("SELECT count(*) FROM t").first?[0] == .integer(2000))
    }
}
