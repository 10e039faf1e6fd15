import IMStore
import TestSupport
import Testing

struct RecoveryTests {
    private let garbage: [UInt8] = (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 13) }

    @Test func garbageIsDetectedAsNotADatabase() throws {
        let directory = TemporaryDirectory()
        directory.write(garbage, to: "bad.sqlite")
        do {
            _ = try Database(path: directory.file("bad.sqlite"))
            Issue.record("opened garbage")
        } catch {
            #expect(error.code == .notADatabase)
            #expect(error.isCorruption)
        }
    }

    @Test func corruptFilesAreMovedAsideNeverDeletedAndAFreshDatabaseWorks() throws {
        let directory = TemporaryDirectory()
        directory.write(garbage, to: "bad.sqlite")
        directory.write([1, 2, 3], to: "bad.sqlite-wal")
        let (database, moved) = try Database.openRecovering(path: directory.file("bad.sqlite"))
        // SQLite may have created a -shm beside the -wal; that moves too.
        let asideName = try #require(moved.last?.split(separator: "/").last.map(String.init))
        #expect(moved.contains(directory.file(asideName + "-wal")))
        #expect(asideName.hasPrefix("bad.sqlite.corrupt-"))
        #expect(directory.read(asideName) == garbage)
        #expect(directory.read(asideName + "-wal") == [1, 2, 3])

        try database.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        #expect(try database.fetchOne("SELECT x FROM t")?[0] == .integer(1))
        #expect(try database.journalMode() == "wal")
    }

    @Test func aSecondRecoveryInTheSameSecondGetsItsOwnName() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("bad.sqlite")
        directory.write(garbage, to: "bad.sqlite")
        let first = try Database.moveAside(path: path, now: 1_700_000_000)
        directory.write([42], to: "bad.sqlite")
        let second = try Database.moveAside(path: path, now: 1_700_000_000)
        #expect(first == [path + ".corrupt-20231114T221320Z"])
        #expect(second == [path + ".corrupt-20231114T221320Z-2"])
        #expect(directory.read("bad.sqlite.corrupt-20231114T221320Z") == garbage)
        #expect(directory.read("bad.sqlite.corrupt-20231114T221320Z-2") == [42])
    }

    @Test func damagedPagesBehindAGoodHeaderFailQuickCheck() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("pages.sqlite")
        do {
            var configuration = Database.Configuration()
            configuration.journalMode = nil
            let database = try Database(path: path, configuration: configuration)
            try database.executeScript("CREATE TABLE t(x TEXT); CREATE INDEX tx ON t(x)")
            try database.transaction { database in
                for index in 0..<2000 {
                    try database.execute("INSERT INTO t VALUES (?)", [.text("row \(index) padding padding")])
                }
            }
        }
        // Keep the 100-byte header and page 1 (the schema), smash pages 2 and 3.
        directory.overwrite("pages.sqlite", at: 4096, with: garbage)
        let healthy = try Database(path: path)
        do {
            try healthy.quickCheck()
            Issue.record("quick_check passed a damaged file")
        } catch {
            #expect(error.isCorruption)
        }
        healthy.close()
        let (database, moved) = try Database.openRecovering(path: path)
        #expect(!moved.isEmpty)
        #expect(try database.fetchOne("SELECT count(*) FROM sqlite_master")?[0] == .integer(0))
    }

    @Test func aHealthyFileIsLeftInPlace() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("ok.sqlite")
        try Database(path: path).executeScript("CREATE TABLE t(x)")
        let (database, moved) = try Database.openRecovering(path: path)
        #expect(moved.isEmpty)
        #expect(try database.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 't'")?[0] == .integer(1))
    }
}
