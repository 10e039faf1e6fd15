#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the socket calls the transport makes, with errno turned into errors.
enum Socket {
    /// A non-blocking, close-on-exec TCP socket for `family`.
    static func open(_ family: Int32) throws(TransportError) -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, 0)
        guard fd >= 0 else { throw .system(SystemError("socket")) }
        return fd
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Disables Nagle's algorithm: MQTT packets are small and latency matters more.
    static func setNoDelay(_ fd: Int32) {
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    }

    /// The error a non-blocking connect ended with (0 when it succeeded).
    static func pendingError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    static func localAddress(_ fd: Int32) -> SocketAddress? {
        address(fd, getsockname)
    }

    static func peerAddress(_ fd: Int32) -> SocketAddress? {
        address(fd, getpeername)
    }

    private static func address(
        _ fd: Int32, _ call: (Int32, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> Int32
    ) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafeBytes(of: storage) { SocketAddress($0.baseAddress!) }
    }
}
