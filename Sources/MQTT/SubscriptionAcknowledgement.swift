/// The shape SUBACK and UNSUBACK share: a packet identifier, properties,
/// then one reason code per topic filter of the request, in order.
public protocol SubscriptionAcknowledgement: ControlPacket {
    var packetIdentifier: UInt16 { get set }
    /// At least one.
    var reasonCodes: [ReasonCode] { get set }
    /// Allowed: reason string, user properties.
    var properties: Properties { get set }

    init(packetIdentifier: UInt16, reasonCodes: [ReasonCode], properties: Properties)
}

extension SubscriptionAcknowledgement {
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
