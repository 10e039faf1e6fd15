/// DISCONNECT: ends the connection, from either side, with the reason.
public struct Disconnect: ControlPacket {
    public static let packetType = PacketType.disconnect

    public var reasonCode: ReasonCode
    /// Allowed: session expiry interval (client only), reason string, server reference, user properties.
    public var properties: Properties

    public init(reasonCode: ReasonCode = .normalDisconnection, properties: Properties = []) {
        self.reasonCode = reasonCode
        self.properties = properties
    }

    /// Remaining Length 0 means normal disconnection, 1 a reason code without properties.
    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Disconnect {
        let (reasonCode, properties) = try ReasonCodeAndProperties.decode(from: &reader, in: .disconnect)
        return Disconnect(reasonCode: reasonCode, properties: properties)
    }

    /// Writes the shortest form: `E0 00` for a normal disconnection without properties.
    public func encodeBody(into writer: inout ByteWriter) {
        ReasonCodeAndProperties.encode(reasonCode, properties, mayOmitProperties: true, into: &writer)
    }
}
