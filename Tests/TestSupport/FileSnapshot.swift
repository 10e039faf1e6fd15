import CSQLite
#if canImport(Glibc)
import Glibc
#endif
import IMStore

/// Reads a SQLite file as it is in the OS's cache at this moment, without taking its locks:
/// what a process killed now would leave behind.
///
/// A session keeps its file's lock between transactions (`Database.Configuration.compact`),
/// so no ordinary connection can look while it runs; SQLite's `nolock` reader can. A read
/// that meets a write under way (a journal not zeroed yet, a page half written) fails or
/// looks torn, so it is tried again a few times; nil when it never succeeds.
/// Blocks (sqlite3_step): call it off the cooperative pool in async code that must not stall.
public enum FileSnapshot {
    public static func rows(_ path: String, _ sql: String, _ arguments: [DatabaseValue] = []) -> [[DatabaseValue]]? {
        for attempt in 0..<20 {
            if let rows = try? readOnce(path, sql, arguments) { return rows }
            usleep(UInt32(1_000 * (attempt + 1)))
        }
        return nil
    }

    /// The integer in the first column of the first row, nil when there is none or no read succeeded.
    public static func integer(_ path: String, _ sql: String, _ arguments: [DatabaseValue] = []) -> Int64? {
        guard case .integer(let value) = rows(path, sql, arguments)?.first?.first else { return nil }
        return value
    }

    private struct Failure: Error {}

    private static func readOnce(_ path: String, _ sql: String, _ arguments: [DatabaseValue]) throws -> [[DatabaseValue]] {
        Database.configureProcess()
        var handle: OpaquePointer?
        let uri = "file:\(encoded(path))?mode=ro&nolock=1"
        defer { sqlite3_close_v2(handle) }
        guard sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK else { throw Failure() }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure() }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let value): sqlite3_bind_int64(statement, position, value)
            case .real(let value): sqlite3_bind_double(statement, position, value)
            case .text(let value): sqlite3_bind_text(statement, position, value, -1, imsh_sqlite_transient())
            case .blob(let value): sqlite3_bind_blob(statement, position, value, Int32(value.count), imsh_sqlite_transient())
            }
        }
        var rows: [[DatabaseValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            guard step == SQLITE_ROW else { throw Failure() }
            rows.append((0..<sqlite3_column_count(statement)).map { column in value(statement, column) })
        }
    }

    private static func value(_ statement: OpaquePointer?, _ column: Int32) -> DatabaseValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
        case SQLITE_BLOB:
            .blob(Array(UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, column),
                                               count: Int(sqlite3_column_bytes(statement, column)))))
        default: .null
        }
    }

    /// The path as a URI's path: the characters a URI gives meaning to are percent-encoded.
    private static func encoded(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"): result += "%" + String(byte, radix: 16, uppercase: true)
            default: result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}
