import Glibc
import IMStore
import Testing
import TestSupport

/// SQLite's files are read without updating their access time (`O_NOATIME`), where the file
/// system would otherwise update it (a `relatime` mount after a write).
struct DatabaseAccessTimeTests {
    @Test func readingADatabaseLeavesItsAccessTime() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/access.sqlite"
        var configuration = Database.Configuration()
        configuration.journalMode = .persist
        do {
            let writer = try Database(path: path, configuration: configuration)
            try writer.executeScript("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            writer.close()
        }
        let old = try setAccessTimeAnHourBeforeModification(path)
        // The premise: a plain read updates it here. A mount with noatime never does, and then
        // there is nothing to keep.
        let probe = Glibc.open(path, O_RDONLY)
        var byte: UInt8 = 0
        _ = pread(probe, &byte, 1, 0)
        Glibc.close(probe)
        guard try accessTime(path) != old else { return }
        let restored = try setAccessTimeAnHourBeforeModification(path)

        let reader = try Database(path: path, configuration: configuration)
        #expect(try reader.fetchOne("SELECT x FROM t")?[0].int64 == 1)
        reader.close()
        #expect(try accessTime(path) == restored)
    }

    private func setAccessTimeAnHourBeforeModification(_ path: String) throws -> Int {
        var status = stat()
        try #require(stat(path, &status) == 0)
        var times = [timespec(tv_sec: status.st_mtim.tv_sec - 3600, tv_nsec: 0), status.st_mtim]
        try #require(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return try accessTime(path)
    }

    private func accessTime(_ path: String) throws -> Int {
        var status = stat()
        try #require(stat(path, &status) == 0)
        return status.st_atim.tv_sec
    }
}
