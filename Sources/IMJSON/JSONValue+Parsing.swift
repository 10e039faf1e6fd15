extension JSONValue {
    /// How `init(parsing:)` reads untrusted payloads: 32 levels deep at most, no byte order mark.
    public static let parsingOptions = JSONParser.Options(maximumDepth: 32, skipsByteOrderMark: false)

    /// Parses one complete JSON text strictly, as payloads from other parties must be read.
    ///
    /// Beyond the grammar, refuses repeated member names (two `text` keys would mean two
    /// different messages to two readers), a byte order mark, nesting deeper than
    /// `parsingOptions.maximumDepth` and numbers too large for a `Double`.
    public init(parsing bytes: [UInt8]) throws(JSONError) {
        try self.init(JSONParser.parse(bytes, options: Self.parsingOptions))
    }

    /// Parses one complete JSON text given as a String; see `init(parsing:)` for bytes.
    public init(parsing text: String) throws(JSONError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The value of a parsed node, positions dropped.
    ///
    /// Integers that fit `Int64` stay exact and other numbers become `Double`. Throws, at the
    /// offending place, for a member name repeated in one object (a `JSONObject` holds each name
    /// once) and for a number whose magnitude overflows `Double`.
    public init(_ node: JSONNode) throws(JSONError) {
        switch node.value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .string(let value): self = .string(value)
        case .number(let text): self = try Self.number(text, at: node.location)
        case .array(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for element in elements {
                values.append(try JSONValue(element))
            }
            self = .array(values)
        case .object(let members):
            var object = JSONObject()
            object.reserveCapacity(members.count)
            for member in members {
                guard object.appendIfAbsent(member.key, try JSONValue(member.value)) else {
                    throw JSONError("duplicate member \"\(member.key)\"", at: member.keyLocation)
                }
            }
            self = .object(object)
        }
    }

    private static func number(_ text: String, at location: SourceLocation) throws(JSONError) -> JSONValue {
        let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw JSONError("number \(text) out of range", at: location) }
        return .double(double)
    }
}
