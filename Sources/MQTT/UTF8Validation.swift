/// Checks the MQTT rules for UTF-8 Encoded Strings (MQTT 5 section 1.5.4).
///
/// Well-formed UTF-8 only (no overlong forms, nothing above U+10FFFF), no
/// surrogates U+D800...U+DFFF, no U+0000. Other code points, U+FFFF and the
/// control characters included, are allowed: the standard only says SHOULD NOT.
enum UTF8Validation {
    /// A description of the first rule `bytes` breaks, or nil if it is a valid MQTT string.
    static func firstProblem(in bytes: ArraySlice<UInt8>) -> String? {
        var index = bytes.startIndex
        let end = bytes.endIndex
        while index < end {
            let lead = bytes[index]
            if lead < 0x80 {
                if lead == 0 { return "contains U+0000 at byte \(index - bytes.startIndex)" }
                index += 1
                continue
            }
            let count: Int
            var scalar: UInt32
            let smallest: UInt32
            switch lead {
            case 0xC2...0xDF: (count, scalar, smallest) = (2, UInt32(lead & 0x1F), 0x80)
            case 0xE0...0xEF: (count, scalar, smallest) = (3, UInt32(lead & 0x0F), 0x800)
            case 0xF0...0xF4: (count, scalar, smallest) = (4, UInt32(lead & 0x07), 0x10000)
            default: return invalid(at: index - bytes.startIndex)
            }
            guard end - index >= count else { return invalid(at: index - bytes.startIndex) }
            for next in index + 1..<index + count {
                let byte = bytes[next]
                guard byte & 0xC0 == 0x80 else { return invalid(at: index - bytes.startIndex) }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
            }
            guard scalar >= smallest, scalar <= 0x10FFFF else { return invalid(at: index - bytes.startIndex) }
            if (0xD800...0xDFFF).contains(scalar) {
                return "contains the surrogate U+\(String(scalar, radix: 16, uppercase: true)) at byte \(index - bytes.startIndex)"
            }
            index += count
        }
        return nil
    }

    private static func invalid(at position: Int) -> String {
        "is not well-formed UTF-8 at byte \(position)"
    }
}
