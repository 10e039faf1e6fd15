/// Any MQTT 5 control packet.
public enum Packet: Hashable, Sendable {
    case connect(Connect)
    case connack(ConnAck)
    case publish(Publish)
    case puback(PubAck)
    case pubrec(PubRec)
    case pubrel(PubRel)
    case pubcomp(PubComp)
    case subscribe(Subscribe)
    case suback(SubAck)
    case unsubscribe(Unsubscribe)
    case unsuback(UnsubAck)
    case pingreq
    case pingresp
    case disconnect(Disconnect)
    case auth(Auth)

    /// The packet inside, as its own type.
    public var value: any ControlPacket {
        switch self {
        case .connect(let packet): return packet
        case .connack(let packet): return packet
        case .publish(let packet): return packet
        case .puback(let packet): return packet
        case .pubrec(let packet): return packet
        case .pubrel(let packet): return packet
        case .pubcomp(let packet): return packet
        case .subscribe(let packet): return packet
        case .suback(let packet): return packet
        case .unsubscribe(let packet): return packet
        case .unsuback(let packet): return packet
        case .pingreq: return PingReq()
        case .pingresp: return PingResp()
        case .disconnect(let packet): return packet
        case .auth(let packet): return packet
        }
    }

    /// The packet type, as the fixed header gives it.
    public var type: PacketType {
        switch self {
        case .connect: return .connect
        case .connack: return .connack
        case .publish: return .publish
        case .puback: return .puback
        case .pubrec: return .pubrec
        case .pubrel: return .pubrel
        case .pubcomp: return .pubcomp
        case .subscribe: return .subscribe
        case .suback: return .suback
        case .unsubscribe: return .unsubscribe
        case .unsuback: return .unsuback
        case .pingreq: return .pingreq
        case .pingresp: return .pingresp
        case .disconnect: return .disconnect
        case .auth: return .auth
        }
    }

    /// Writes the whole packet, fixed header included.
    public func encode(into writer: inout ByteWriter) {
        switch self {
        case .connect(let packet): packet.encode(into: &writer)
        case .connack(let packet): packet.encode(into: &writer)
        case .publish(let packet): packet.encode(into: &writer)
        case .puback(let packet): packet.encode(into: &writer)
        case .pubrec(let packet): packet.encode(into: &writer)
        case .pubrel(let packet): packet.encode(into: &writer)
        case .pubcomp(let packet): packet.encode(into: &writer)
        case .subscribe(let packet): packet.encode(into: &writer)
        case .suback(let packet): packet.encode(into: &writer)
        case .unsubscribe(let packet): packet.encode(into: &writer)
        case .unsuback(let packet): packet.encode(into: &writer)
        case .pingreq: PingReq().encode(into: &writer)
        case .pingresp: PingResp().encode(into: &writer)
        case .disconnect(let packet): packet.encode(into: &writer)
        case .auth(let packet): packet.encode(into: &writer)
        }
    }

    /// The whole packet as bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes
    }
}
