/// A PostgreSQL SQLSTATE error code (five characters), as the server reports it.
///
/// Only the codes imsh acts on are named; any other code still compares by its raw value.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public static let uniqueViolation = SQLState(rawValue: "23505")
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    public static let notNullViolation = SQLState(rawValue: "23502")
    public static let checkViolation = SQLState(rawValue: "23514")
    public static let serializationFailure = SQLState(rawValue: "40001")
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    public static let queryCanceled = SQLState(rawValue: "57014")
    public static let adminShutdown = SQLState(rawValue: "57P01")
    public static let crashShutdown = SQLState(rawValue: "57P02")
    public static let cannotConnectNow = SQLState(rawValue: "57P03")
    public static let undefinedTable = SQLState(rawValue: "42P01")
    public static let undefinedColumn = SQLState(rawValue: "42703")
    public static let duplicateTable = SQLState(rawValue: "42P07")
    public static let syntaxError = SQLState(rawValue: "42601")
    public static let invalidTextRepresentation = SQLState(rawValue: "22P02")

    /// Whether running the whole transaction again may succeed: a serialization failure or a
    /// deadlock, where the server rolled the transaction back through no fault of its statements.
    public var isRetryableTransactionFailure: Bool {
        self == .serializationFailure || self == .deadlockDetected
    }

    public var description: String { rawValue }
}
