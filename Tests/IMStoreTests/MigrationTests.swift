import IMStore
import TestSupport
import Testing

struct MigrationTests {
    struct Boom: Error {}

    /// Migrations that log their own number in the table the first one creates.
    private func migrator(count: Int) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.register("create log") { database in
            try database.executeScript("CREATE TABLE log(step INTEGER)")
            try database.execute("INSERT INTO log VALUES (1)")
        }
        for step in stride(from: 2, through: count, by: 1) {
            migrator.register("step \(step)") { database in
                try database.execute("INSERT INTO log VALUES (?)", [.integer(Int64(step))])
            }
        }
        return migrator
    }

    private func log(_ database: Database) throws -> [DatabaseValue] {
        try database.fetchAll("SELECT step FROM log ORDER BY rowid").map { $0[0] }
    }

    @Test func migrationsRunOnceAndInOrderAcrossReopen() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("m.sqlite")
        do {
            let database = try Database(path: path)
            #expect(try migrator(count: 2).migrate(database) == 2)
            #expect(try migrator(count: 2).migrate(database) == 0)
            #expect(try database.userVersion() == 2)
        }
        let database = try Database(path: path)
        let grown = migrator(count: 4)
        #expect(grown.latestVersion == 4)
        #expect(try grown.migrate(database) == 2)
        #expect(try database.userVersion() == 4)
        #expect(try log(database) == [1, 2, 3, 4])
    }

    @Test func aThrowingMigrationLeavesTheVersionTheFileHad() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("m.sqlite"))
        try migrator(count: 1).migrate(database)
        var broken = migrator(count: 2)
        broken.register("half done") { database in
            try database.executeScript("CREATE TABLE half(x)")
            throw Boom()
        }
        #expect(throws: Boom.self) { try broken.migrate(database) }
        // Step 2 ran in the same transaction as the failing step 3: both are undone.
        #expect(try database.userVersion() == 1)
        #expect(try database.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'half'")?[0] == .integer(0))
        #expect(try log(database) == [1])
        #expect(try migrator(count: 2).migrate(database) == 1)
        #expect(try log(database) == [1, 2])
    }

    @Test func aNewFileIsMigratedInOneCommit() throws {
        final class Count { var commits = 0 }
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("m.sqlite"))
        let count = Count()
        // In WAL mode (the default) SQLite calls the hook once per commit that wrote pages.
        try database.onWALCommit { _ in count.commits += 1 }
        #expect(try migrator(count: 4).migrate(database) == 4)
        #expect(try database.userVersion() == 4 && log(database) == [1, 2, 3, 4])
        #expect(count.commits == 1)
        #expect(try migrator(count: 4).migrate(database) == 0)
        #expect(count.commits == 1, "a file already current is not written")
    }

    @Test func aNewerFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.file("m.sqlite"))
        try migrator(count: 3).migrate(database)
        do {
            try migrator(count: 2).migrate(database)
            Issue.record("migrated a newer schema down")
        } catch let error as DatabaseError {
            #expect(error.message.contains("newer"))
        }
        #expect(try database.userVersion() == 3)
    }

    /// The current schema serves an empty file only: a file at an older version, or at version
    /// 0 with tables of its own, goes through the migrations; and its result is the latest version.
    @Test func theCurrentSchemaServesOnlyAnEmptyFile() throws {
        let directory = TemporaryDirectory()
        var current = migrator(count: 3)
        current.registerCurrentSchema { database in
            try database.executeScript("CREATE TABLE log(step INTEGER)")
            try database.execute("INSERT INTO log VALUES (0)")
        }
        let new = try Database(path: directory.file("new.sqlite"))
        #expect(try current.migrate(new) == 3)
        #expect(try new.userVersion() == 3 && log(new) == [0])
        #expect(try current.migrate(new) == 0)

        let older = try Database(path: directory.file("older.sqlite"))
        try migrator(count: 1).migrate(older)
        #expect(try current.migrate(older) == 2)
        #expect(try log(older) == [1, 2, 3])

        let foreign = try Database(path: directory.file("foreign.sqlite"))
        try foreign.executeScript("CREATE TABLE other(x)")
        #expect(try current.migrate(foreign) == 3)
        #expect(try log(foreign) == [1, 2, 3])

        let replayed = try Database(path: directory.file("replayed.sqlite"))
        #expect(try current.historyOnly.migrate(replayed) == 3)
        #expect(try log(replayed) == [1, 2, 3])
    }
}
