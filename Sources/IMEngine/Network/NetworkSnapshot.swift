import CNetlink
#if canImport(Glibc)
import Glibc
#endif

/// The set of usable network addresses at one moment: interfaces up and running, not loopback,
/// with an IPv4 or a non-link-local IPv6 address.
public struct NetworkSnapshot: Sendable, Equatable {
    /// Entries of the form `eth0 192.0.2.7`.
    public var addresses: Set<String>

    public init(addresses: Set<String>) { self.addresses = addresses }

    public var isUsable: Bool { !addresses.isEmpty }

    /// Reads the current snapshot with getifaddrs; in the calling thread's network namespace.
    public static func current() -> NetworkSnapshot {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return NetworkSnapshot(addresses: []) }
        defer { freeifaddrs(list) }
        var addresses: Set<String> = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor?.pointee {
            cursor = entry.ifa_next
            let flags = Int32(bitPattern: entry.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_RUNNING) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = entry.ifa_addr, let text = numericHost(address) else { continue }
            addresses.insert("\(String(cString: entry.ifa_name)) \(text)")
        }
        return NetworkSnapshot(addresses: addresses)
    }

    /// The event that leads from `previous` to `self`, if any.
    public func event(since previous: NetworkSnapshot) -> NetworkEvent? {
        switch (previous.isUsable, isUsable) {
        case (true, false): return .down
        case (false, true): return .up
        case (true, true) where previous != self: return .changed
        default: return nil
        }
    }

    private static func numericHost(_ address: UnsafeMutablePointer<sockaddr>) -> String? {
        let family = Int32(address.pointee.sa_family)
        let length: socklen_t
        switch family {
        case AF_INET:
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
        case AF_INET6:
            let isLinkLocal = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                $0.pointee.sin6_addr.__in6_u.__u6_addr8.0 == 0xFE && $0.pointee.sin6_addr.__in6_u.__u6_addr8.1 & 0xC0 == 0x80
            }
            guard !isLinkLocal else { return nil }
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        default:
            return nil
        }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
