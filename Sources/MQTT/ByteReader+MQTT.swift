extension ByteReader {
    /// The largest value a Variable Byte Integer can hold (4 bytes of 7 bits).
    public static let maximumVariableByteInteger: UInt32 = 268_435_455

    /// Reads a Variable Byte Integer: at most 4 bytes, in the fewest bytes possible.
    ///
    /// A fifth byte, or a longer encoding than the value needs, is malformed.
    public mutating func readVariableByteInteger() throws(MQTTError) -> UInt32 {
        var copy = self
        var value: UInt32 = 0
        for byteCount in 1...4 {
            let byte = try copy.readUInt8()
            value |= UInt32(byte & 0x7F) << (7 * (byteCount - 1))
            if byte & 0x80 == 0 {
                if byte == 0 && byteCount > 1 {
                    throw .malformed("variable byte integer at offset \(offset) uses more bytes than its value needs")
                }
                self = copy
                return value
            }
        }
        throw .malformed("variable byte integer at offset \(offset) is longer than 4 bytes")
    }

    /// Reads a UTF-8 Encoded String: a 2-byte length, then well-formed UTF-8
    /// without U+0000 or surrogates.
    public mutating func readString() throws(MQTTError) -> String {
        var copy = self
        let length = Int(try copy.readUInt16())
        let bytes = try copy.readSlice(length)
        if let problem = UTF8Validation.firstProblem(in: bytes) {
            throw .malformed("string at offset \(offset) \(problem)")
        }
        self = copy
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads Binary Data: a 2-byte length, then that many bytes.
    public mutating func readBinary() throws(MQTTError) -> [UInt8] {
        var copy = self
        let length = Int(try copy.readUInt16())
        let bytes = try copy.readBytes(length)
        self = copy
        return bytes
    }

    /// Reads a UTF-8 String Pair: a name string then a value string.
    public mutating func readStringPair() throws(MQTTError) -> (name: String, value: String) {
        var copy = self
        let name = try copy.readString()
        let value = try copy.readString()
        self = copy
        return (name, value)
    }
}
