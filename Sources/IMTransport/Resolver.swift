import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Host name resolution with getaddrinfo, which blocks, so it runs on its own dispatch queue:
/// never on an event loop thread, never on Swift's cooperative pool.
enum Resolver {
    private static let queue = DispatchQueue(label: "imsh.transport.resolver", attributes: .concurrent)

    /// Resolves `host` off the caller's thread and calls `completion` on the resolver queue.
    static func resolve(
        _ host: String, port: UInt16,
        completion: @escaping @Sendable (Result<[SocketAddress], TransportError>) -> Void
    ) {
        queue.async { completion(addresses(of: host, port: port)) }
    }

    /// The TCP addresses of `host` in the resolver's order of preference, without duplicates. Blocks.
    static func addresses(of host: String, port: UInt16) -> Result<[SocketAddress], TransportError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            let reason = status == EAI_SYSTEM ? SystemError("getaddrinfo").reason : String(cString: gai_strerror(status))
            return .failure(.hostNotFound(name: host, reason: reason))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var node = list
        while let entry = node?.pointee {
            if let raw = entry.ai_addr, let address = SocketAddress(UnsafeRawPointer(raw))?.with(port: port),
               !addresses.contains(address) {
                addresses.append(address)
            }
            node = entry.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(.hostNotFound(name: host, reason: "the name has no IPv4 or IPv6 address"))
        }
        return .success(addresses)
    }
}
