import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 that refuses connections and that no other socket can take: a free one
/// for a test of "nothing listens there", or a stock peer's own while it is down between
/// `stop()` and `restart()`.
///
/// A port merely left free could be bound by a peer of a test running beside, and a client meant
/// to find nothing there would log in to that one (the likely cause of one CI failure). Holding
/// it is a socket bound to the port and never listening: connecting is refused as if nothing
/// were there, and a bind to port 0 never picks a port bound already.
///
/// Without `SO_REUSEADDR` no other socket can bind it either. When the peer's connections in
/// TIME_WAIT refuse such a bind, the hold takes the port with `SO_REUSEADDR`, which still keeps
/// it from binds to port 0 and from sockets without the option.
public final class LoopbackPortHold: Sendable {
    public let port: UInt16
    private let descriptor: Mutex<Int32?>

    /// Holds a free port, chosen by the kernel.
    public init() throws {
        guard let fd = Self.bound(0, reusingAddress: false) else { throw TestCertificateError("cannot bind 127.0.0.1: errno \(errno)") }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard named else {
            close(fd)
            throw TestCertificateError("getsockname: errno \(errno)")
        }
        port = UInt16(bigEndian: address.sin_port)
        descriptor = Mutex(fd)
    }

    /// Holds `port`; nil when something else has it already.
    public init?(port: UInt16) {
        guard let fd = Self.bound(port, reusingAddress: false) ?? Self.bound(port, reusingAddress: true) else { return nil }
        self.port = port
        descriptor = Mutex(fd)
    }

    /// A socket bound to `port`, or nil.
    private static func bound(_ port: UInt16, reusingAddress: Bool) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        if reusingAddress { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) }
        guard LoopbackPort.address(fd, port: port, with: bind) else {
            close(fd)
            return nil
        }
        return fd
    }

    deinit { release() }

    /// Lets the port go: for the peer to bind it again, or at the end of a test (where the call
    /// also keeps the hold alive until then).
    public func release() {
        descriptor.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }
}
