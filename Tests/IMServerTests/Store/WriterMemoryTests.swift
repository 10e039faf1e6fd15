import IMStore
import Testing
import TestSupport
@testable import IMServer

/// What a writer learned survives the owner's own commits and nothing else: another
/// connection's commit, or a rollback (`forget`), drops it. The first is what makes keeping it
/// worth anything, the others what makes it right.
struct WriterMemoryTests {
    @Test func survivesOwnCommitsAndGoesWithAnothersCommit() throws {
        let directory = TemporaryDirectory(prefix: "imsh-memory")
        let path = directory.path + "/m.sqlite"
        let owner = try Database(path: path)
        let other = try Database(path: path)
        try owner.executeScript("CREATE TABLE t(x)")
        let memory = WriterMemory()
        let alice = UserKey(appKey: "app", userID: "alice")

        func ownTurn(_ body: () throws -> Void) throws {
            try owner.execute("BEGIN IMMEDIATE")
            memory.begin(owner)
            try body()
            try owner.execute("COMMIT")
            memory.committed(owner)
        }

        try ownTurn {
            memory.remember([(id: 1, deviceID: "phone")], of: alice)
            memory.nextMessageID = 42
            try owner.execute("INSERT INTO t VALUES (1)")
        }
        try ownTurn {
            #expect(memory.rows(of: alice)?.first?.deviceID == "phone")
            #expect(memory.nextMessageID == 42)
            try owner.execute("INSERT INTO t VALUES (2)")
        }
        // A read of the owner's outside its write turns does not count as a change either.
        #expect(try owner.fetchOne("SELECT count(*) FROM t")?[0].int64 == 2)
        try ownTurn { #expect(memory.rows(of: alice) != nil) }

        try other.execute("INSERT INTO t VALUES (3)")
        try ownTurn {
            #expect(memory.rows(of: alice) == nil)
            #expect(memory.nextMessageID == nil)
        }

        memory.remember([(id: 2, deviceID: "laptop")], of: alice)
        memory.forget()
        try ownTurn { #expect(memory.rows(of: alice) == nil) }
    }
}
