/// A statement parameter (`$1`, `$2`, ...).
///
/// Every value goes as text and the server infers its type from the statement (write `$1::bigint`
/// where it cannot), except `bytes`, which goes in binary as `bytea`.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case integer(Int64)
    case bytes([UInt8])
    case boolean(Bool)
}

extension PostgresValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension PostgresValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PostgresValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension PostgresValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}
