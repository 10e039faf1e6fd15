import CSQLite

/// A prepared SQLite statement, confined to the owner of its `Database`.
///
/// Bind with `bind(_:)` (1-based positions in SQL, 0-based in the array), step with `step()`,
/// read the current row with the column accessors. Finalized when released.
public final class Statement {
    let handle: OpaquePointer
    /// The statement's SQL text as given to `prepare`.
    public let sql: String
    private let connection: OpaquePointer
    private let path: String

    init(connection: OpaquePointer, sql: String, path: String) throws(DatabaseError) {
        var statement: OpaquePointer?
        // `tail` points into the C string, so it is read while that string is alive.
        let (code, moreSQL) = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection, text, -1, &statement, &tail)
            return (code, tail.map(Self.hasMoreSQL) ?? false)
        }
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError.last(connection, code: code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql, path: path)
        }
        // A second statement after the first would be silently ignored: refuse it instead.
        if moreSQL {
            sqlite3_finalize(statement)
            throw DatabaseError(code: SQLITE_MISUSE, message: "more than one statement; use executeScript", sql: sql, path: path)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        self.path = path
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private static func hasMoreSQL(_ tail: UnsafePointer<CChar>) -> Bool {
        var cursor = tail
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"):
                cursor += 1
            default:
                return true
            }
        }
        return false
    }

    // MARK: Binding

    /// How many values `bind` takes: the largest parameter number (`?NNN` may repeat one).
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Binds `values` to the parameters 1...n after clearing earlier bindings.
    public func bind(_ values: [DatabaseValue]) throws(DatabaseError) {
        let expected = parameterCount
        guard values.count == expected else {
            throw DatabaseError(code: SQLITE_RANGE, message: "\(values.count) arguments for \(expected) parameters", sql: sql, path: path)
        }
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: DatabaseValue, at index: Int32) throws(DatabaseError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            code = bindText(text, at: index)
        case .blob(let bytes):
            // A nil pointer would bind NULL: an empty blob needs its own call.
            code = bytes.isEmpty
                ? sqlite3_bind_zeroblob(handle, index, 0)
                : bytes.withUnsafeBytes { sqlite3_bind_blob64(handle, index, $0.baseAddress, UInt64($0.count), imsh_sqlite_transient()) }
        }
        guard code == SQLITE_OK else { throw DatabaseError.last(connection, code: code, sql: sql, path: path) }
    }

    private func bindText(_ text: String, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                // A nil pointer would bind NULL: "" needs a real (empty, terminated) string.
                return sqlite3_bind_text(handle, index, "", 0, imsh_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) { chars in
                sqlite3_bind_text64(handle, index, chars, UInt64(utf8.count), imsh_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is ready to read, false when done.
    @discardableResult
    public func step() throws(DatabaseError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = DatabaseError.last(connection, code: code, sql: sql, path: path)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Rewinds the statement so it can run again; keeps the bindings.
    public func reset() {
        sqlite3_reset(handle)
    }

    // MARK: Columns

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of column `index` (0-based) in the result.
    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    public func isNull(_ index: Int) -> Bool {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
    }

    public func int64(_ index: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(index))
    }

    public func double(_ index: Int) -> Double {
        sqlite3_column_double(handle, Int32(index))
    }

    /// The column as UTF-8 text (SQLite converts numbers; NULL reads as "").
    public func string(_ index: Int) -> String {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes (NULL and empty blobs read as []).
    public func blob(_ index: Int) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, Int32(index)) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column with its storage class.
    public func value(_ index: Int) -> DatabaseValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB: return .blob(blob(index))
        default: return .null
        }
    }

    /// The current row copied out.
    public func row() -> Row {
        Row((0..<columnCount).map(value))
    }
}
