import IMStore
import Testing

struct TransactionTests {
    struct Boom: Error {}

    private func makeDatabase() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.executeScript("CREATE TABLE t(x INTEGER)")
        return database
    }

    private func count(_ database: Database) throws -> Int64? {
        try database.fetchOne("SELECT count(*) FROM t")?[0].int64
    }

    @Test func commitsWhenTheBodyReturns() throws {
        let database = try makeDatabase()
        let value = try database.transaction { database in
            try database.execute("INSERT INTO t VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(try count(database) == 1)
        #expect(!database.isInTransaction)
    }

    @Test func rollsBackWhenTheBodyThrows() throws {
        let database = try makeDatabase()
        #expect(throws: Boom.self) {
            try database.transaction { database in
                try database.execute("INSERT INTO t VALUES (1)")
                #expect(database.isInTransaction)
                throw Boom()
            }
        }
        #expect(try count(database) == 0)
        #expect(!database.isInTransaction)
    }

    @Test func aFailingInnerBlockUndoesOnlyItself() throws {
        let database = try makeDatabase()
        try database.transaction { database in
            try database.execute("INSERT INTO t VALUES (1)")
            _ = try? database.transaction { database in
                try database.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try database.transaction { database in
                try database.execute("INSERT INTO t VALUES (3)")
            }
        }
        #expect(try database.fetchAll("SELECT x FROM t ORDER BY x").map { $0[0] } == [1, 3])
    }

    @Test func aFailingStatementInsideRollsBackEverything() throws {
        let database = try makeDatabase()
        try database.executeScript("CREATE TABLE u(x INTEGER NOT NULL)")
        #expect(throws: DatabaseError.self) {
            try database.transaction { database in
                try database.execute("INSERT INTO t VALUES (1)")
                try database.execute("INSERT INTO u VALUES (NULL)")
            }
        }
        #expect(try count(database) == 0)
    }
}
