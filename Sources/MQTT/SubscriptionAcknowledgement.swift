/// SUBACK or UNSUBACK (use the aliases `SubAck` and `UnsubAck`): a packet identifier,
/// properties, then one reason code per topic filter of the request, in order.
public struct SubscriptionAcknowledgement<Kind: PacketKind>: ControlPacket {
    public static var packetType: PacketType { Kind.packetType }

    public var packetIdentifier: UInt16
    /// At least one.
    public var reasonCodes: [ReasonCode]
    /// Allowed: reason string, user properties.
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCodes: [ReasonCode], properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCodes = reasonCodes
        self.properties = properties
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Self {
        let packetIdentifier = try reader.readPacketIdentifier()
        let properties = try Properties.decode(from: &reader, in: PropertyContext(packetType))
        let reasonCodes = reader.readRemainingBytes().map(ReasonCode.init(rawValue:))
        guard !reasonCodes.isEmpty else { throw .protocolError("no reason codes") }
        return Self(packetIdentifier: packetIdentifier, reasonCodes: reasonCodes, properties: properties)
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeUInt16(packetIdentifier)
        properties.encode(into: &writer)
        for code in reasonCodes { writer.writeUInt8(code.rawValue) }
    }
}
