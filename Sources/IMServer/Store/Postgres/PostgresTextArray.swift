/// PostgreSQL's text form of a `text[]`, both ways: how arrays travel as one parameter and
/// come back in one column (the wire format here is text).
///
/// Both work on UTF-8 bytes, not `Character`s: the only bytes that matter (`\`, `"`, `,`,
/// braces) are ASCII, which never occur inside a multi-byte sequence. Walking characters cost
/// a tenth of a node's CPU during a login storm (every login's notice goes through `literal`)
/// and every stored message's text goes through it too.
enum PostgresTextArray {
    private static let backslash = UInt8(ascii: "\\"), quote = UInt8(ascii: "\""), comma = UInt8(ascii: ",")
    /// An unquoted element spelled so is a NULL, not text.
    private static let null = Array("NULL".utf8)

    /// `{"a","b"}`: every element quoted, backslashes and quotes escaped.
    static func literal(_ values: [String]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        bytes.append(UInt8(ascii: "{"))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(comma) }
            bytes.append(quote)
            for byte in value.utf8 {
                if byte == backslash || byte == quote { bytes.append(backslash) }
                bytes.append(byte)
            }
            bytes.append(quote)
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The elements of `{a,"b c",...}` (nil or `{}`: none); NULL elements are left out.
    static func parse(_ text: String?) -> [String] {
        guard let text else { return [] }
        let inner = Array(text.utf8).dropFirst().dropLast()
        guard !inner.isEmpty else { return [] }
        var elements: [String] = []
        var current: [UInt8] = []
        var quoted = false, inQuotes = false, escaped = false
        func finish() {
            if quoted || current != null { elements.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
            quoted = false
        }
        for byte in inner {
            if escaped {
                current.append(byte)
                escaped = false
            } else if byte == backslash {
                escaped = true
            } else if byte == quote {
                inQuotes.toggle()
                quoted = true
            } else if byte == comma, !inQuotes {
                finish()
            } else {
                current.append(byte)
            }
        }
        finish()
        return elements
    }
}
