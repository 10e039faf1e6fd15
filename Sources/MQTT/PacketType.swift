/// The 15 MQTT control packet types: the high nibble of the first byte.
public enum PacketType: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case connect = 1
    case connack = 2
    case publish = 3
    case puback = 4
    case pubrec = 5
    case pubrel = 6
    case pubcomp = 7
    case subscribe = 8
    case suback = 9
    case unsubscribe = 10
    case unsuback = 11
    case pingreq = 12
    case pingresp = 13
    case disconnect = 14
    case auth = 15

    /// The flags the low nibble must hold, or nil for PUBLISH, whose flags carry DUP, QoS and RETAIN.
    public var requiredFlags: UInt8? {
        switch self {
        case .publish: return nil
        case .pubrel, .subscribe, .unsubscribe: return 0b0010
        default: return 0
        }
    }

    /// The upper-case name the standard uses, such as "PUBACK".
    public var description: String {
        switch self {
        case .connect: return "CONNECT"
        case .connack: return "CONNACK"
        case .publish: return "PUBLISH"
        case .puback: return "PUBACK"
        case .pubrec: return "PUBREC"
        case .pubrel: return "PUBREL"
        case .pubcomp: return "PUBCOMP"
        case .subscribe: return "SUBSCRIBE"
        case .suback: return "SUBACK"
        case .unsubscribe: return "UNSUBSCRIBE"
        case .unsuback: return "UNSUBACK"
        case .pingreq: return "PINGREQ"
        case .pingresp: return "PINGRESP"
        case .disconnect: return "DISCONNECT"
        case .auth: return "AUTH"
        }
    }
}
