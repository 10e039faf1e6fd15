/// The REP field of a SOCKS5 reply (RFC 1928, section 6); unknown values are kept.
public struct SOCKS5Reply: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let succeeded = SOCKS5Reply(rawValue: 0x00)
    public static let generalFailure = SOCKS5Reply(rawValue: 0x01)
    public static let notAllowedByRuleset = SOCKS5Reply(rawValue: 0x02)
    public static let networkUnreachable = SOCKS5Reply(rawValue: 0x03)
    public static let hostUnreachable = SOCKS5Reply(rawValue: 0x04)
    public static let connectionRefused = SOCKS5Reply(rawValue: 0x05)
    public static let ttlExpired = SOCKS5Reply(rawValue: 0x06)
    public static let commandNotSupported = SOCKS5Reply(rawValue: 0x07)
    public static let addressTypeNotSupported = SOCKS5Reply(rawValue: 0x08)

    public var description: String {
        let text: String
        switch self {
        case .succeeded: text = "succeeded"
        case .generalFailure: text = "general SOCKS server failure"
        case .notAllowedByRuleset: text = "connection not allowed by the proxy's rules"
        case .networkUnreachable: text = "network unreachable from the proxy"
        case .hostUnreachable: text = "host unreachable from the proxy"
        case .connectionRefused: text = "connection refused by the destination"
        case .ttlExpired: text = "TTL expired"
        case .commandNotSupported: text = "command not supported"
        case .addressTypeNotSupported: text = "address type not supported"
        default: text = "unknown reply"
        }
        return "\(text) (reply 0x\(String(rawValue, radix: 16)))"
    }
}
