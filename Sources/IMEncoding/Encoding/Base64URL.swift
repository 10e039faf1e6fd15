/// Base64 with the URL-safe alphabet (RFC 4648 §5) and no padding, as tokens use it.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, symbol) in alphabet.enumerated() {
            table[Int(symbol)] = UInt8(index)
        }
        return table
    }()

    /// The unpadded encoding of `bytes`.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode($0) }
    }

    /// The unpadded encoding of the bytes in `bytes`, written straight into the string's storage.
    public static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: (bytes.count * 4 + 2) / 3) { text in
            var written = 0
            var index = 0
            while index < bytes.count {
                let remaining = bytes.count - index
                let chunk = UInt32(bytes[index]) << 16
                    | (remaining > 1 ? UInt32(bytes[index + 1]) << 8 : 0)
                    | (remaining > 2 ? UInt32(bytes[index + 2]) : 0)
                for position in 0..<(min(remaining, 3) + 1) {
                    text[written] = alphabet[Int((chunk >> UInt32(18 - 6 * position)) & 0x3F)]
                    written += 1
                }
                index += 3
            }
            return written
        }
    }

    /// The bytes of an unpadded encoding, or nil.
    ///
    /// Strict: padding, other alphabets, whitespace, impossible lengths and non-zero
    /// leftover bits are refused, so each byte string has exactly one accepted encoding.
    public static func decode(_ text: String) -> [UInt8]? {
        let symbols = Array(text.utf8)
        guard symbols.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            let value = values[Int(symbol)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return bytes
    }
}
