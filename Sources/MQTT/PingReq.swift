/// PINGREQ: keeps the connection alive; the server answers PINGRESP. Always `C0 00`.
public struct PingReq: ControlPacket {
    public static let packetType = PacketType.pingreq

    public init() {}

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> PingReq {
        PingReq()
    }

    public func encodeBody(into writer: inout ByteWriter) {}
}
