import CSQLite

#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Opens `path`; if the file is corrupt or not a database, moves it aside and starts fresh.
    ///
    /// Runs `PRAGMA quick_check` on open (cost grows with the file size). Returns the new paths
    /// of the moved files (empty when nothing was wrong). Other errors are thrown unchanged.
    public static func openRecovering(
        path: String, configuration: Configuration = Configuration()
    ) throws(DatabaseError) -> (database: Database, movedAside: [String]) {
        var checked = configuration
        checked.quickCheckOnOpen = true
        var moved: [String] = []
        do {
            // Move the files while the failed connection is still open: closing it would
            // delete a `-wal` SQLite cannot use, or checkpoint it into the damaged file.
            let database = try Database(path: path, configuration: checked) { handle, error throws(DatabaseError) in
                guard error.isCorruption else { return }
                imsh_sqlite_no_checkpoint_on_close(handle)
                moved = try moveAside(path: path)
            }
            return (database, [])
        } catch where error.isCorruption && !moved.isEmpty {
            return (try Database(path: path, configuration: checked), moved)
        }
    }

    /// Renames `path` and its `-wal`, `-shm` and `-journal` companions aside; never deletes.
    ///
    /// The new names are `<path>.corrupt-<UTC timestamp>[-n]<companion suffix>`, the same
    /// stem for all files of the set. Call only while no connection has the file open.
    /// Returns the new paths of the files that existed.
    public static func moveAside(path: String, now: time_t = time(nil)) throws(DatabaseError) -> [String] {
        let stem = freeStem(for: path, timestamp: utcTimestamp(now))
        var moved: [String] = []
        // The main file goes last: if a companion fails to move, the set still opens as before.
        for suffix in ["-wal", "-shm", "-journal", ""] {
            let source = path + suffix
            let target = stem + suffix
            guard access(source, F_OK) == 0 else { continue }
            guard rename(source, target) == 0 else {
                let reason = String(cString: strerror(errno))
                throw DatabaseError(code: SQLITE_IOERR, message: "cannot move \(source) to \(target): \(reason)", path: path)
            }
            moved.append(target)
        }
        return moved
    }

    /// `<path>.corrupt-<timestamp>`, numbered when an earlier recovery took that name.
    private static func freeStem(for path: String, timestamp: String) -> String {
        let base = "\(path).corrupt-\(timestamp)"
        var candidate = base
        var number = 1
        while ["", "-wal", "-shm", "-journal"].contains(where: { access(candidate + $0, F_OK) == 0 }) {
            number += 1
            candidate = "\(base)-\(number)"
        }
        return candidate
    }

    private static func utcTimestamp(_ seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        gmtime_r(&clock, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y%m%dT%H%M%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
