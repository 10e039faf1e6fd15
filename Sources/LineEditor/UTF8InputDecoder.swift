/// Turns the bytes read from the terminal into Unicode scalars, one at a time.
///
/// A character split across two reads waits for its remaining bytes; malformed input becomes
/// U+FFFD, so a stray byte cannot stall the line.
struct UTF8InputDecoder {
    private var bytes: [UInt8] = []
    private var start = 0

    var isEmpty: Bool { start == bytes.count }

    mutating func append<Bytes: Sequence<UInt8>>(_ newBytes: Bytes) {
        if start > 0, start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        bytes.append(contentsOf: newBytes)
    }

    /// The next complete scalar, or nil when the buffered bytes do not yet make one.
    mutating func next() -> Unicode.Scalar? {
        guard start < bytes.count else { return nil }
        let lead = bytes[start]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default:
            start += 1
            return "\u{FFFD}"
        }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            guard start + offset < bytes.count else { return nil }
            let continuation = bytes[start + offset]
            guard continuation & 0xC0 == 0x80 else {
                start += offset
                return "\u{FFFD}"
            }
            value = value << 6 | UInt32(continuation & 0x3F)
        }
        start += length
        let minimum: UInt32 = [0, 0, 0x80, 0x800, 0x10000][length]
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }
}
