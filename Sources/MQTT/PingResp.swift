/// PINGRESP: the server's answer to PINGREQ. Always `D0 00`.
public struct PingResp: ControlPacket {
    public static let packetType = PacketType.pingresp

    public init() {}

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> PingResp {
        PingResp()
    }

    public func encodeBody(into writer: inout ByteWriter) {}
}
