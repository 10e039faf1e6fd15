/// Parses JSON text (RFC 8259) into `JSONNode`s with line and column positions.
///
/// The one JSON grammar of the package: configuration files read the nodes directly, and
/// `JSONValue(parsing:)` converts them for payloads. Nesting is capped so hostile input cannot
/// exhaust the stack; duplicate keys are kept in order for the caller to report or refuse.
public struct JSONParser {
    /// What a caller accepts around the grammar, which is the same for every caller.
    public struct Options: Sendable, Equatable {
        /// The deepest nesting of arrays and objects accepted.
        public var maximumDepth: Int
        /// Whether a UTF-8 byte order mark before the value is ignored (editors write one).
        public var skipsByteOrderMark: Bool

        public init(maximumDepth: Int = 64, skipsByteOrderMark: Bool = true) {
            self.maximumDepth = maximumDepth
            self.skipsByteOrderMark = skipsByteOrderMark
        }
    }

    let bytes: [UInt8]
    var index = 0
    private let options: Options
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    private init(_ bytes: [UInt8], options: Options) {
        self.bytes = bytes
        self.options = options
    }

    /// Parses a whole document; anything but whitespace after the value is an error.
    public static func parse(_ bytes: [UInt8], options: Options = Options()) throws(JSONError) -> JSONNode {
        var parser = JSONParser(bytes, options: options)
        if options.skipsByteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return node
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String, options: Options = Options()) throws(JSONError) -> JSONNode {
        try parse(Array(text.utf8), options: options)
    }

    var location: SourceLocation { SourceLocation(line: line, column: index - lineStart + 1) }

    func error(_ reason: String) -> JSONError { JSONError(reason, at: location) }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(JSONError) -> JSONNode {
        let start = location
        guard index < bytes.count else { throw error("expected a value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(.object(try parseObject()), at: start)
        case UInt8(ascii: "["): return JSONNode(.array(try parseArray()), at: start)
        case UInt8(ascii: "\""): return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "t"): try expectWord("true"); return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"): try expectWord("false"); return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"): try expectWord("null"); return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), at: start)
        default:
            throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        guard depth <= options.maximumDepth else { throw error("nesting deeper than \(options.maximumDepth) levels") }
        index += 1
        skipWhitespace()
    }

    private mutating func parseObject() throws(JSONError) -> [JSONNode.Member] {
        try enterContainer()
        defer { depth -= 1 }
        var members: [JSONNode.Member] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return members }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes, found \(describeCurrent())")
            }
            let keyLocation = location
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            members.append(.init(key: key, keyLocation: keyLocation, value: try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object: expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace(); continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return members }
            throw error("expected ',' or '}' in object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONError) -> [JSONNode] {
        try enterContainer()
        defer { depth -= 1 }
        var elements: [JSONNode] = []
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return elements }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array: expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; skipWhitespace(); continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return elements }
            throw error("expected ',' or ']' in array, found \(describeCurrent())")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
            throw error("expected \(word), found \(describeCurrent())")
        }
        index += expected.count
    }

    private mutating func parseNumber() throws(JSONError) -> String {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw error("expected digits in number") }
        guard !(leadingZero && integerDigits > 1) else { throw error("numbers may not have leading zeros") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected digits in the exponent") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
