/// The status code of a WebSocket close frame (RFC 6455 section 7.4); unknown codes survive.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let normal = WebSocketCloseCode(rawValue: 1000)
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// Never sent: what a close frame without a code reads as.
    public static let noStatus = WebSocketCloseCode(rawValue: 1005)
    /// Never sent: the connection ended without a close frame.
    public static let abnormal = WebSocketCloseCode(rawValue: 1006)
    public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    public static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may put this code in a close frame (1005, 1006, 1015 and undefined
    /// ranges are refused as a protocol error).
    public var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: return true
        default: return false
        }
    }

    /// The code and its RFC name, as error messages print it.
    public var description: String {
        let names: [UInt16: String] = [
            1000: "normal closure", 1001: "going away", 1002: "protocol error", 1003: "unsupported data",
            1005: "no status", 1006: "abnormal closure", 1007: "invalid payload", 1008: "policy violation",
            1009: "message too big", 1010: "extension required", 1011: "internal error",
        ]
        return names[rawValue].map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
