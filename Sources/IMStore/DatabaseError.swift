import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A failed SQLite call: the result code, SQLite's message, the SQL and the file.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    /// The primary result code; branch on this.
    public var code: ResultCode
    /// The full (extended) result code, such as `SQLITE_CONSTRAINT_UNIQUE`.
    public var extendedCode: Int32
    /// The text of `sqlite3_errmsg` at the time of failure, or our own words.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?
    /// The database file, or `:memory:`.
    public var path: String
    /// The errno of the system call behind a failure to open or do I/O (`SQLITE_CANTOPEN`,
    /// `SQLITE_IOERR`), 0 when none: SQLite's "unable to open database file" alone does not
    /// say whether the file, its directory or the process's open-file limit was at fault.
    public var systemErrorCode: Int32

    public init(code: Int32, message: String, sql: String? = nil, path: String, systemErrorCode: Int32 = 0) {
        self.code = ResultCode(primaryOf: code)
        self.extendedCode = code
        self.message = message
        self.sql = sql
        self.path = path
        self.systemErrorCode = systemErrorCode
    }

    /// The file is not a database or is damaged: move it aside and start over.
    public var isCorruption: Bool {
        code == .corrupt || code == .notADatabase
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(code)): \(message)"
        if systemErrorCode != 0 { text += " (\(String(cString: strerror(systemErrorCode))), errno \(systemErrorCode))" }
        text += " [\(path)]"
        if let sql { text += " while running: \(sql)" }
        return text
    }

    /// The error SQLite reports for `handle` right after a call returned `code`.
    static func last(_ handle: OpaquePointer?, code: Int32, sql: String?, path: String) -> DatabaseError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        // SQLite records the errno only for these two; for others it may be a stale one.
        let primary = code & 0xff
        let system = primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR ? handle.map(sqlite3_system_errno) ?? 0 : 0
        return DatabaseError(code: code, message: message, sql: sql, path: path, systemErrorCode: system)
    }
}
