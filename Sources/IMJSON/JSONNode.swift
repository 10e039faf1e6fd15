/// A parsed JSON value that remembers where it stood in its file.
///
/// Configuration errors name the line and column of the offending value, so the
/// parser keeps positions that Foundation's JSON types drop.
public struct JSONNode: Sendable, Equatable {
    /// One member of an object, in file order.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: JSONNode
    }

    public indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// The number's text as written, so integers of any size and decimals stay exact.
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    public var value: Value
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// A word for the value's type, as used in error messages ("a string", "an object").
    public var typeName: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
