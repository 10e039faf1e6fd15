/// A connection's compiled statements, by their SQL text.
///
/// Looked up by the address of the text's bytes before the text itself: SQL written in code is
/// a constant whose bytes stay where they are, so a hot statement (the message server's are a
/// few hundred bytes) is found without hashing its whole text at every call. A statement found
/// by address is used only if its text is the same (a freed string's address can come back
/// holding other SQL); for a string that shares the constant's storage that comparison is
/// a comparison of two words.
struct StatementCache {
    /// Entries kept at most: the cache is for SQL written in code; the limit only guards
    /// against a caller that builds SQL as it goes.
    static let limit = 128

    private var byText: [String: Statement] = [:]
    private var byAddress: [UInt: Statement] = [:]

    /// The statement compiled for `sql`, if any.
    mutating func statement(for sql: String) -> Statement? {
        let address = Self.address(of: sql)
        if let address, let statement = byAddress[address], statement.sql == sql { return statement }
        guard let statement = byText[sql] else { return nil }
        if let address { byAddress[address] = statement }
        return statement
    }

    mutating func insert(_ statement: Statement, for sql: String) {
        if byText.count >= Self.limit { removeAll() }
        byText[sql] = statement
        if let address = Self.address(of: sql) { byAddress[address] = statement }
    }

    mutating func removeAll() {
        byText.removeAll()
        byAddress.removeAll()
    }

    /// Where the text's UTF-8 bytes are stored, used as a key and never read through. Short
    /// text is stored inside the String value itself (no address of its own), and hashes
    /// cheaply anyway.
    private static func address(of sql: String) -> UInt? {
        guard sql.utf8.count > 15 else { return nil }
        return sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
    }
}
