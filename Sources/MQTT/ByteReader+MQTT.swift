// The MQTT data types of section 1.5. Each read either consumes the whole value
// or, on error, leaves the position where it was.
extension ByteReader {
    /// The largest value a Variable Byte Integer can hold (4 bytes of 7 bits).
    public static let maximumVariableByteInteger: UInt32 = 268_435_455

    /// Reads a Variable Byte Integer: at most 4 bytes, in the fewest bytes possible.
    ///
    /// A fifth byte, or a longer encoding than the value needs, is malformed.
    public mutating func readVariableByteInteger() throws(MQTTError) -> UInt32 {
        var value: UInt32 = 0
        for byteCount in 1...4 {
            try require(byteCount)
            let byte = storage[index + byteCount - 1]
            value |= UInt32(byte & 0x7F) << (7 * (byteCount - 1))
            if byte & 0x80 == 0 {
                if byte == 0 && byteCount > 1 {
                    throw .malformed("variable byte integer at offset \(offset) uses more bytes than its value needs")
                }
                index += byteCount
                return value
            }
        }
        throw .malformed("variable byte integer at offset \(offset) is longer than 4 bytes")
    }

    /// Reads a UTF-8 Encoded String: a 2-byte length, then well-formed UTF-8
    /// without U+0000 or surrogates.
    public mutating func readString() throws(MQTTError) -> String {
        let bytes = try peekLengthPrefixed()
        if let problem = UTF8Validation.firstProblem(in: bytes) {
            throw .malformed("string at offset \(offset) \(problem)")
        }
        index = bytes.endIndex
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads Binary Data: a 2-byte length, then that many bytes.
    public mutating func readBinary() throws(MQTTError) -> [UInt8] {
        let bytes = try peekLengthPrefixed()
        index = bytes.endIndex
        return Array(bytes)
    }

    /// Reads a UTF-8 String Pair: a name string then a value string.
    public mutating func readStringPair() throws(MQTTError) -> (name: String, value: String) {
        let start = index
        let name = try readString()
        do {
            return (name, try readString())
        } catch {
            index = start
            throw error
        }
    }

    /// The bytes of a 2-byte-length-prefixed field, without consuming anything.
    private func peekLengthPrefixed() throws(MQTTError) -> ArraySlice<UInt8> {
        try require(2)
        let length = Int(storage[index]) << 8 | Int(storage[index + 1])
        guard length <= remainingCount - 2 else {
            throw MQTTError(.truncated, "length \(length) at offset \(offset) runs past the end: \(remainingCount - 2) bytes remain")
        }
        return storage[index + 2..<index + 2 + length]
    }
}
