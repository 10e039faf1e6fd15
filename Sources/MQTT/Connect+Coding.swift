extension Connect {
    private enum Flag {
        static let reserved: UInt8 = 0x01
        static let cleanStart: UInt8 = 0x02
        static let will: UInt8 = 0x04
        static let willQoSShift: UInt8 = 3
        static let willRetain: UInt8 = 0x20
        static let password: UInt8 = 0x40
        static let userName: UInt8 = 0x80
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Connect {
        let name = try reader.readString()
        guard name == protocolName else {
            throw MQTTError(.unsupportedProtocolVersion, "protocol name is \"\(name)\", not \"MQTT\"")
        }
        let level = try reader.readUInt8()
        guard level == protocolLevel else {
            throw MQTTError(.unsupportedProtocolVersion, "protocol level is \(level); only 5 (MQTT 5.0) is supported")
        }
        let connectFlags = try reader.readUInt8()
        guard connectFlags & Flag.reserved == 0 else { throw .malformed("the reserved connect flag is set") }
        let hasWill = connectFlags & Flag.will != 0
        let willQoSBits = (connectFlags >> Flag.willQoSShift) & 0x03
        let willRetain = connectFlags & Flag.willRetain != 0
        if !hasWill && (willQoSBits != 0 || willRetain) {
            throw .malformed("will QoS or will retain is set without the will flag")
        }
        guard let willQoS = QoS(rawValue: willQoSBits) else { throw .malformed("will QoS is 3") }

        var connect = Connect(clientIdentifier: "", cleanStart: connectFlags & Flag.cleanStart != 0)
        connect.keepAlive = try reader.readUInt16()
        connect.properties = try Properties.decode(from: &reader, in: .connect)
        connect.clientIdentifier = try reader.readString()
        if hasWill {
            let willProperties = try Properties.decode(from: &reader, in: .will)
            let topic = try reader.readString()
            do throws(TopicError) {
                try Topic.validateName(topic)
            } catch {
                throw .protocolError("will topic: \(error.message)")
            }
            let payload = try reader.readBinary()
            connect.will = Will(topic: topic, payload: payload, qos: willQoS, retain: willRetain, properties: willProperties)
        }
        if connectFlags & Flag.userName != 0 { connect.userName = try reader.readString() }
        if connectFlags & Flag.password != 0 { connect.password = try reader.readBinary() }
        return connect
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeString(Self.protocolName)
        writer.writeUInt8(Self.protocolLevel)
        var connectFlags: UInt8 = cleanStart ? Flag.cleanStart : 0
        if let will {
            connectFlags |= Flag.will | will.qos.rawValue << Flag.willQoSShift
            if will.retain { connectFlags |= Flag.willRetain }
        }
        if userName != nil { connectFlags |= Flag.userName }
        if password != nil { connectFlags |= Flag.password }
        writer.writeUInt8(connectFlags)
        writer.writeUInt16(keepAlive)
        properties.encode(into: &writer)
        writer.writeString(clientIdentifier)
        if let will {
            will.properties.encode(into: &writer)
            writer.writeString(will.topic)
            writer.writeBinary(will.payload)
        }
        if let userName { writer.writeString(userName) }
        if let password { writer.writeBinary(password) }
    }
}
