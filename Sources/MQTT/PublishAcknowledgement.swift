/// PUBACK, PUBREC, PUBREL or PUBCOMP (use the aliases `PubAck` and so on): a packet
/// identifier, then a reason code and properties that may be left out.
public struct PublishAcknowledgement<Kind: PacketKind>: ControlPacket {
    public static var packetType: PacketType { Kind.packetType }

    public var packetIdentifier: UInt16
    public var reasonCode: ReasonCode
    /// Allowed: reason string, user properties.
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCode: ReasonCode = .success, properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCode = reasonCode
        self.properties = properties
    }

    /// Remaining Length 2 means success without properties, 3 a reason code without properties.
    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Self {
        let packetIdentifier = try reader.readPacketIdentifier()
        let reasonCode = reader.isAtEnd ? ReasonCode.success : ReasonCode(try reader.readUInt8())
        let properties = reader.isAtEnd ? Properties() : try Properties.decode(from: &reader, in: PropertyContext(packetType))
        return Self(packetIdentifier: packetIdentifier, reasonCode: reasonCode, properties: properties)
    }

    /// Writes the shortest form the standard allows.
    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeUInt16(packetIdentifier)
        if reasonCode == .success && properties.isEmpty { return }
        writer.writeUInt8(reasonCode.rawValue)
        if properties.isEmpty { return }
        properties.encode(into: &writer)
    }
}
