/// `application/x-www-form-urlencoded` fields in order; names may repeat (`userId=a&userId=b`).
public struct FormFields: Hashable, Sendable, Sequence {
    public typealias Field = NamedValue

    public private(set) var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Decodes a body or query string: `&`-separated `name=value` pairs, `+` as space,
    /// `%XX` escapes. Empty pieces (`a=1&&b=2`) are skipped; a piece without `=` is a name
    /// with an empty value. A bad escape or bytes that are not UTF-8 throw.
    public init(decoding bytes: some Collection<UInt8>) throws(FormDecodingError) {
        let bytes = Array(bytes)
        var offset = 0
        for piece in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
            defer { offset += piece.count + 1 }
            guard !piece.isEmpty else { continue }
            let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
            let name = try PercentDecoding.decode(piece[piece.startIndex..<equals], offset: offset)
            let value = equals == piece.endIndex
                ? ""
                : try PercentDecoding.decode(piece[(equals + 1)...], offset: offset + equals - piece.startIndex + 1)
            fields.append(Field(name: name, value: value))
        }
    }

    /// Decodes a query or body given as a String.
    public init(decoding text: String) throws(FormDecodingError) {
        try self.init(decoding: Array(text.utf8))
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var count: Int { fields.count }

    /// The first value of `name` (exact, case-sensitive match), if present.
    public subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    public mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The encoded form: letters, digits and `*-._` as they are, space as `+`, every other
    /// byte of the UTF-8 as `%XX` (the WHATWG serializer).
    public func encoded() -> String {
        fields.map { PercentDecoding.encode($0.name) + "=" + PercentDecoding.encode($0.value) }.joined(separator: "&")
    }
}

/// A form body or query that does not decode.
public struct FormDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset of the problem in the input.
    public var offset: Int
    public var reason: String

    public var description: String { "invalid form data at byte \(offset): \(reason)" }
}

enum PercentDecoding {
    static func decode(_ bytes: ArraySlice<UInt8>, offset: Int) throws(FormDecodingError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "+"):
                output.append(UInt8(ascii: " "))
                index += 1
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.endIndex,
                    let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
                else {
                    throw FormDecodingError(offset: offset + index - bytes.startIndex, reason: "'%' not followed by two hex digits")
                }
                output.append(high << 4 | low)
                index += 3
            default:
                output.append(byte)
                index += 1
            }
        }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw FormDecodingError(offset: offset, reason: "not valid UTF-8")
        }
        return text
    }

    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                output.append(byte)
            case UInt8(ascii: " "):
                output.append(UInt8(ascii: "+"))
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
