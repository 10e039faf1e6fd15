#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address with a TCP port.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address family.
    public enum Family: Hashable, Sendable {
        case ipv4
        case ipv6
    }

    public let family: Family
    public let port: UInt16
    /// The address in network byte order, as stored in memory: 4 bytes for IPv4 (then zeros),
    /// 16 for IPv6. Held inline, not in an array, because every connection keeps two addresses
    /// and an array would be two more heap blocks per connection.
    private let head: UInt64
    private let tail: UInt64

    /// The address in network byte order: 4 bytes for IPv4, 16 for IPv6.
    var bytes: [UInt8] { withRawBytes { Array($0) } }

    /// Parses a numeric address such as `127.0.0.1`, `::1` or `[::1]`; nil for anything else.
    public init?(ipAddress: String, port: UInt16) {
        var text = Substring(ipAddress)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        let literal = String(text)
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, literal, &v4) == 1 {
            self.init(family: .ipv4, address: v4, port: port)
        } else if inet_pton(AF_INET6, literal, &v6) == 1 {
            self.init(family: .ipv6, address: v6, port: port)
        } else {
            return nil
        }
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6`; nil for other families.
    init?(_ address: UnsafeRawPointer) {
        switch Int32(address.load(as: sockaddr.self).sa_family) {
        case AF_INET:
            let v4 = address.loadUnaligned(as: sockaddr_in.self)
            self.init(family: .ipv4, address: v4.sin_addr,
                      port: UInt16(bigEndian: v4.sin_port))
        case AF_INET6:
            let v6 = address.loadUnaligned(as: sockaddr_in6.self)
            self.init(family: .ipv6, address: v6.sin6_addr,
                      port: UInt16(bigEndian: v6.sin6_port))
        default:
            return nil
        }
    }

    /// `address` is an `in_addr` or `in6_addr`, copied as it lies in memory.
    private init<Address>(family: Family, address: Address, port: UInt16) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { words in
            withUnsafeBytes(of: address) { words.copyMemory(from: $0) }
        }
        self.init(family: family, head: words.0, tail: words.1, port: port)
    }

    private init(family: Family, head: UInt64, tail: UInt64, port: UInt16) {
        self.family = family
        self.head = head
        self.tail = tail
        self.port = port
    }

    /// Calls `body` with the address bytes in network byte order (4 or 16 of them).
    private func withRawBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: (head, tail)) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(family == .ipv4 ? 4 : 16))) }
    }

    /// The numeric host, such as `127.0.0.1` or `::1`.
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let result = withRawBytes { address in
            inet_ntop(protocolFamily, address.baseAddress, &text, socklen_t(text.count))
        }
        guard result != nil else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String { TransportError.endpoint(host, port) }

    var protocolFamily: Int32 { family == .ipv4 ? AF_INET : AF_INET6 }

    /// Calls `body` with this address as a `sockaddr` and its length.
    func withSockAddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch family {
        case .ipv4:
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withRawBytes { bytes in withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyMemory(from: bytes) } }
            return Self.asSockAddr(&v4, body)
        case .ipv6:
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withRawBytes { bytes in withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyMemory(from: bytes) } }
            return Self.asSockAddr(&v6, body)
        }
    }

    private static func asSockAddr<Address, Result>(
        _ address: inout Address, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }
}

extension SocketAddress {
    /// The same host with another port.
    func with(port: UInt16) -> SocketAddress {
        SocketAddress(family: family, head: head, tail: tail, port: port)
    }
}
