/// CONNACK: the server's answer to CONNECT.
public struct ConnAck: ControlPacket {
    public static let packetType = PacketType.connack

    /// Whether the server resumed a session; always false with a failure reason code.
    public var sessionPresent: Bool
    public var reasonCode: ReasonCode
    /// Allowed: the server's limits and features (receive maximum, maximum QoS, ...),
    /// assigned client identifier, server keep alive, server reference, reason string,
    /// authentication, user properties.
    public var properties: Properties

    public init(sessionPresent: Bool = false, reasonCode: ReasonCode = .success, properties: Properties = []) {
        self.sessionPresent = sessionPresent
        self.reasonCode = reasonCode
        self.properties = properties
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> ConnAck {
        let acknowledgeFlags = try reader.readUInt8()
        guard acknowledgeFlags & 0xFE == 0 else {
            throw .malformed("reserved connect acknowledge flags are set")
        }
        let reasonCode = ReasonCode(try reader.readUInt8())
        let sessionPresent = acknowledgeFlags & 0x01 != 0
        if sessionPresent && reasonCode.isFailure {
            throw .protocolError("session present is set with failure reason code \(reasonCode)")
        }
        let properties = try Properties.decode(from: &reader, in: .connack)
        return ConnAck(sessionPresent: sessionPresent, reasonCode: reasonCode, properties: properties)
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeUInt8(sessionPresent ? 1 : 0)
        writer.writeUInt8(reasonCode.rawValue)
        properties.encode(into: &writer)
    }
}
