#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for stock peers that must be told a port (they cannot report port 0).
public enum LoopbackPort {
    /// A port nothing listens on now, for a peer to bind: released at once, so another process
    /// could take it before the peer does (`StockPostgres` and `StockMosquitto` then pick
    /// another). A port that must stay free is a `LoopbackPortHold`.
    public static func free() throws -> UInt16 {
        let hold = try LoopbackPortHold()
        hold.release()
        return hold.port
    }

    /// Whether something accepts connections on `port`.
    public static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return address(fd, port: port, with: connect)
    }

    /// Whether a socket of another process could bind `port` now (no `SO_REUSEADDR`, as a bind to
    /// port 0 chooses): false while anything holds it, a `LoopbackPortHold` included.
    public static func canBind(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return address(fd, port: port, with: bind)
    }

    /// Polls until something accepts on `port`; false after `limit`.
    public static func waitUntilAccepting(_ port: UInt16, within limit: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if accepts(port) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Whether `call` (bind or connect) succeeds for socket `fd` and 127.0.0.1:`port`.
    static func address(_ fd: Int32, port: UInt16, with call: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32) -> Bool {
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }
}
