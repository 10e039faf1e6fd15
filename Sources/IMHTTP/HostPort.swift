#if canImport(Glibc)
import Glibc
#endif

/// A `HOST[:PORT]`: the one parser of hosts and ports, for URLs (http, mqtt, socks5), Server
/// References and the command lines' `--listen` options.
///
/// Hosts are names of `[A-Za-z0-9._-]` (lowercased), IPv4 addresses, or IPv6 addresses in
/// brackets (checked, kept without the brackets).
public struct HostPort: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST[:PORT]`; `defaultPort` when none is written, or an error when nil (port 0,
    /// "any free port", only where `allowsPortZero`, as a listening address).
    public init<Text: StringProtocol>(
        parsing text: Text, defaultPort: UInt16?, allowsPortZero: Bool = false
    ) throws(URLParseError) {
        var hostPart = Substring(text)
        var portPart: Substring?
        if text.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw URLParseError("unclosed '[' in the host") }
            let after = hostPart[hostPart.index(after: close)...]
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw URLParseError("unexpected \(after) after the IPv6 address") }
                portPart = after.dropFirst()
            }
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(hostPart), &address) == 1 else {
                throw URLParseError("invalid IPv6 address \(hostPart)")
            }
        } else {
            guard hostPart.utf8.count(where: { $0 == UInt8(ascii: ":") }) <= 1 else {
                throw URLParseError("put an IPv6 address in brackets, as in [::1]:\(defaultPort ?? 1883)")
            }
            if let colon = hostPart.firstIndex(of: ":") {
                portPart = hostPart[hostPart.index(after: colon)...]
                hostPart = hostPart[..<colon]
            }
            guard !hostPart.isEmpty else { throw URLParseError("no host") }
            guard hostPart.utf8.allSatisfy(Self.isNameByte) else {
                throw URLParseError("invalid character in host \(hostPart)")
            }
        }
        host = hostPart.lowercased()
        // An empty port is the default (RFC 3986: `http://h:/` is `http://h/`).
        guard let portPart, !portPart.isEmpty else {
            guard let defaultPort else { throw URLParseError("no port; write HOST:PORT") }
            port = defaultPort
            return
        }
        guard (1...5).contains(portPart.utf8.count), portPart.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = UInt16(portPart), number > 0 || allowsPortZero
        else {
            throw URLParseError("port must be a number from \(allowsPortZero ? 0 : 1) to 65535")
        }
        port = number
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `[A-Za-z0-9._-]`: the characters of host names.
    public static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}
