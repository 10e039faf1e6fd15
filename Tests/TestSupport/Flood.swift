#if canImport(Glibc)
import Glibc
#endif

/// A peer that writes one chunk of bytes over and over and never reads: what a WebSocket ping
/// flood (or any flood of requests whose answers nobody takes) looks like to the other end.
///
/// It runs on the calling thread with a blocking socket, so call it off the cooperative pool.
public struct Flood: Sendable {
    /// How the flood ended.
    public enum Outcome: Equatable, Sendable {
        /// The other end closed or reset the connection after this many bytes.
        case cut(bytes: Int)
        /// The time ran out with the connection still open.
        case lasted(bytes: Int)
    }

    /// The bytes written once before the flood (an HTTP upgrade, say).
    public var prefix: [UInt8]
    /// The bytes written again and again.
    public var chunk: [UInt8]

    public init(prefix: [UInt8] = [], chunk: [UInt8]) {
        self.prefix = prefix
        self.chunk = chunk
    }

    /// Connects to 127.0.0.1:`port` and floods it for at most `duration`; closes the socket.
    public func run(toPort port: UInt16, for duration: Duration) throws -> Outcome {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("connect to port \(port): errno \(errno)") }
        return run(on: fd, for: duration)
    }

    /// Floods the connected socket `fd` for at most `duration`; the caller closes it.
    public func run(on fd: Int32, for duration: Duration) -> Outcome {
        // Short send timeouts, so that a peer that stops reading does not outlast the deadline.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = ContinuousClock.now + duration
        var total = 0
        var pending = prefix.isEmpty ? chunk : prefix
        var offset = 0
        while ContinuousClock.now < deadline {
            let sent = pending[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                return .cut(bytes: total)
            }
            total += sent
            offset += sent
            if offset == pending.count {
                pending = chunk
                offset = 0
            }
        }
        return .lasted(bytes: total)
    }
}
