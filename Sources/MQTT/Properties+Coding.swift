extension Properties {
    /// Reads a property length and the properties it covers, checking each one for `context`.
    ///
    /// An identifier not allowed in `context` is malformed (0x81), as MQTT 5 section 2.2.2.2
    /// says; a repeated single-use property or a forbidden value is a protocol error (0x82).
    public static func decode(from reader: inout ByteReader, in context: PropertyContext) throws(MQTTError) -> Properties {
        let length = try reader.readVariableByteInteger()
        var body = try reader.readSubreader(Int(length))
        var properties = Properties()
        // Every property takes at least 2 bytes; reserving for a few saves regrowing the array.
        properties.reserveCapacity(Swift.min(Int(length) / 2, 8))
        var seen: UInt64 = 0
        while !body.isAtEnd {
            let rawIdentifier = try body.readVariableByteInteger()
            guard rawIdentifier <= UInt8.max, let definition = PropertyIdentifier(rawValue: UInt8(rawIdentifier)).definition else {
                throw .malformed("unknown property identifier 0x\(String(rawIdentifier, radix: 16))")
            }
            let identifier = PropertyIdentifier(rawValue: UInt8(rawIdentifier))
            let property = Property(unchecked: identifier, try readValue(of: definition.valueType, from: &body))
            try check(property, in: context, seen: &seen)
            properties.append(property)
        }
        return properties
    }

    private static func readValue(of type: PropertyValueType, from reader: inout ByteReader) throws(MQTTError) -> PropertyValue {
        switch type {
        case .byte: return .byte(try reader.readUInt8())
        case .twoByteInteger: return .twoByteInteger(try reader.readUInt16())
        case .fourByteInteger: return .fourByteInteger(try reader.readUInt32())
        case .variableByteInteger: return .variableByteInteger(try reader.readVariableByteInteger())
        case .utf8String: return .string(try reader.readString())
        case .binaryData: return .binary(try reader.readBinary())
        case .utf8StringPair:
            let pair = try reader.readStringPair()
            return .stringPair(name: pair.name, value: pair.value)
        }
    }

    /// Writes the property length and the properties.
    public func encode(into writer: inout ByteWriter) {
        guard !elements.isEmpty else {
            writer.writeUInt8(0)
            return
        }
        writer.writeWithLengthPrefix { writer in
            for property in elements {
                writer.writeVariableByteInteger(UInt32(property.identifier.rawValue))
                switch property.value {
                case .byte(let byte): writer.writeUInt8(byte)
                case .twoByteInteger(let number): writer.writeUInt16(number)
                case .fourByteInteger(let number): writer.writeUInt32(number)
                case .variableByteInteger(let number): writer.writeVariableByteInteger(number)
                case .string(let string): writer.writeString(string)
                case .binary(let bytes): writer.writeBinary(bytes)
                case .stringPair(let name, let value): writer.writeStringPair(name: name, value: value)
                }
            }
        }
    }
}
