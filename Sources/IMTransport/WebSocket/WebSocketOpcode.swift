/// The kind of a WebSocket frame (RFC 6455 section 5.2); unknown values survive decoding
/// only as far as the check that refuses them.
public struct WebSocketOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let continuation = WebSocketOpcode(rawValue: 0x0)
    public static let text = WebSocketOpcode(rawValue: 0x1)
    public static let binary = WebSocketOpcode(rawValue: 0x2)
    public static let close = WebSocketOpcode(rawValue: 0x8)
    public static let ping = WebSocketOpcode(rawValue: 0x9)
    public static let pong = WebSocketOpcode(rawValue: 0xA)

    /// Close, ping and pong: never fragmented, at most 125 bytes of payload.
    public var isControl: Bool { rawValue & 0x8 != 0 }

    /// Whether RFC 6455 defines this opcode (the others are reserved).
    public var isDefined: Bool {
        [0x0, 0x1, 0x2, 0x8, 0x9, 0xA].contains(rawValue)
    }

    public var description: String {
        switch rawValue {
        case 0x0: return "continuation"
        case 0x1: return "text"
        case 0x2: return "binary"
        case 0x8: return "close"
        case 0x9: return "ping"
        case 0xA: return "pong"
        default: return "reserved opcode \(rawValue)"
        }
    }
}
