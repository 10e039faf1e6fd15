/// One value of a row, as the server sent it in text format, with readings for common types.
public struct PostgresCell: Sendable, Equatable {
    /// The text, nil for SQL NULL.
    public var string: String?

    public init(string: String?) { self.string = string }

    public var isNull: Bool { string == nil }

    /// The value as a 64-bit integer; nil for NULL or text that is not one.
    public var int64: Int64? { string.flatMap { Int64($0) } }

    /// A boolean as PostgreSQL writes one (`t`/`f`); nil for anything else.
    public var bool: Bool? {
        switch string {
        case "t": true
        case "f": false
        default: nil
        }
    }

    /// A `bytea` in the server's hex output (`\x0a1b`) decoded; nil for NULL or another form.
    public var bytes: [UInt8]? {
        guard let utf8 = string?.utf8, utf8.count % 2 == 0, utf8.starts(with: [0x5C, 0x78]) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var high: UInt8?
        for character in utf8.dropFirst(2) {
            guard let nibble = Self.nibble(character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character - 0x30
        case 0x61...0x66: character - 0x61 + 10
        case 0x41...0x46: character - 0x41 + 10
        default: nil
        }
    }
}
