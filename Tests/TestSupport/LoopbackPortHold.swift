import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A loopback port kept from everyone else while its stock peer is down between `stop()` and
/// `restart()`.
///
/// A peer told its port cannot keep it once it ends, and the kernel may hand the port to another
/// test's peer starting meanwhile: a client meant to find the server down then logs in to that
/// one (CI saw it once). Holding it is a socket bound to the port and never listening: connecting
/// is refused as if nothing were there, and a bind to port 0 never picks a port bound already.
/// Without `SO_REUSEADDR` no other socket can bind it either; when the peer's connections in
/// TIME_WAIT refuse such a bind, the hold takes the port with `SO_REUSEADDR`, which keeps it from
/// binds to port 0 and from sockets without the option.
public final class LoopbackPortHold: Sendable {
    private let descriptor: Mutex<Int32?>

    /// Binds `port` on 127.0.0.1; nil when something else has it already.
    public convenience init?(port: UInt16) {
        guard let fd = Self.bound(port, reusingAddress: false) ?? Self.bound(port, reusingAddress: true) else { return nil }
        self.init(descriptor: fd)
    }

    private init(descriptor fd: Int32) {
        descriptor = Mutex(fd)
    }

    /// A socket bound to `port`, or nil.
    private static func bound(_ port: UInt16, reusingAddress: Bool) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        if reusingAddress { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = LoopbackPort.address(fd, port: port, with: bind)
        guard bound else {
            close(fd)
            return nil
        }
        return fd
    }

    deinit { release() }

    /// Lets the port go, for the peer to bind it again.
    public func release() {
        descriptor.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }
}
