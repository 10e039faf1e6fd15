extension JSONParser {
    /// Parses a string at the opening quote: escapes, surrogate pairs, and UTF-8 checked.
    mutating func parseString() throws(JSONError) -> String {
        index += 1
        // Most strings hold no escape: they become one String straight from their bytes.
        var result: String?
        var runStart = index
        // A run of ASCII bytes (most keys and ids) is valid UTF-8 as it stands: copied, not checked.
        var runIsASCII = true
        func flushRun(_ parser: JSONParser, upTo end: Int, into result: inout String?) throws(JSONError) {
            guard runStart < end || result == nil else { return }
            let text: String
            if runIsASCII {
                text = parser.bytes.withUnsafeBufferPointer { all in
                    String(unsafeUninitializedCapacity: end - runStart) { storage in
                        _ = storage.initialize(fromContentsOf: UnsafeBufferPointer(rebasing: all[runStart..<end]))
                        return end - runStart
                    }
                }
            } else {
                guard let checked = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                    throw parser.error("invalid UTF-8 in string")
                }
                text = checked
            }
            if result == nil { result = text } else { result! += text }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(self, upTo: index, into: &result)
                index += 1
                return result ?? ""
            case UInt8(ascii: "\\"):
                try flushRun(self, upTo: index, into: &result)
                index += 1
                result!.unicodeScalars.append(try parseEscape())
                runStart = index
                runIsASCII = true
            case 0x00..<0x20:
                throw error(byte == 0x0A ? "unterminated string (line break inside)" : "control character in string; escape it")
            default:
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONError) -> Unicode.Scalar {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800..<0xDC00).contains(first) {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate \\u\(String(first, radix: 16)) in string")
                }
                index += 2
                let second = try parseHex4()
                guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate in string") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate in string") }
            return scalar
        default:
            index -= 1
            throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in string")
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("expected 4 hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
