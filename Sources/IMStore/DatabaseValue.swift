/// One SQLite value: what a statement binds and what a column holds.
///
/// Literals work where a value is expected: `[42, "text", 1.5, nil]`. Other values
/// go in by case (`.blob(bytes)`) or through the optional-taking initializers.
public enum DatabaseValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public init(_ value: Int64?) { self = value.map(DatabaseValue.integer) ?? .null }
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Double?) { self = value.map(DatabaseValue.real) ?? .null }
    public init(_ value: String?) { self = value.map(DatabaseValue.text) ?? .null }
    public init(_ value: [UInt8]?) { self = value.map(DatabaseValue.blob) ?? .null }
    public init(_ value: Bool?) { self = value.map { .integer($0 ? 1 : 0) } ?? .null }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The integer, or nil for any other storage class (no conversion).
    public var int64: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The real; an integer converts, as SQLite's REAL affinity would.
    public var double: Double? {
        switch self {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The text, or nil for any other storage class (no conversion).
    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The blob, or nil for any other storage class (no conversion).
    public var blob: [UInt8]? {
        if case .blob(let value) = self { return value }
        return nil
    }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
