import IMTransport

#if canImport(Glibc)
import Glibc
#endif

/// systemd's readiness protocol (sd_notify(3)), spoken directly: one datagram of
/// newline-separated `NAME=VALUE` lines to the Unix socket named by `$NOTIFY_SOCKET`.
///
/// imserver runs as `Type=notify`: READY=1 once every listener is bound, RELOADING=1 then
/// READY=1 around a SIGHUP reload, STOPPING=1 when a stop signal comes. A name starting with
/// '@' is an abstract socket (its first byte 0 on the wire). Outside systemd there is no
/// `$NOTIFY_SOCKET`, and nothing is sent.
struct ServiceNotifier: Sendable {
    /// The socket's name as `$NOTIFY_SOCKET` gives it: a path, or '@' and an abstract name.
    let socketName: String

    /// The notifier of `$NOTIFY_SOCKET`, or nil when it is unset or names no Unix socket.
    static func fromEnvironment() -> ServiceNotifier? {
        guard let value = getenv("NOTIFY_SOCKET").map({ String(cString: $0) }),
              value.hasPrefix("/") || value.hasPrefix("@"), value.utf8.count > 1 else { return nil }
        return ServiceNotifier(socketName: value)
    }

    /// What imserver tells systemd.
    enum State: Sendable {
        /// READY=1 with a status line.
        case ready(String)
        /// RELOADING=1, with the monotonic time systemd asks of a reload (MONOTONIC_USEC).
        case reloading
        /// STOPPING=1 with a status line.
        case stopping(String)

        var lines: [String] {
            switch self {
            case .ready(let status): return ["READY=1", "STATUS=\(status)"]
            case .reloading:
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                return ["RELOADING=1", "MONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)"]
            case .stopping(let status): return ["STOPPING=1", "STATUS=\(status)"]
            }
        }
    }

    func notify(_ state: State) throws(SystemError) {
        try send(state.lines)
    }

    /// Sends `lines` as one datagram.
    func send(_ lines: [String]) throws(SystemError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var name = Array(socketName.utf8)
        if name.first == UInt8(ascii: "@") { name[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard name.count < capacity else { throw SystemError("NOTIFY_SOCKET", code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in name.enumerated() { path[index] = byte }
        }
        // An abstract name is exactly its bytes; a path ends at its terminating zero.
        let length = MemoryLayout.offset(of: \sockaddr_un.sun_path)! + name.count + (name[0] == 0 ? 0 : 1)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket") }
        defer { close(fd) }
        let message = Array((lines.joined(separator: "\n") + "\n").utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length)) }
            }
        }
        guard sent == message.count else { throw SystemError("sendto \(socketName)") }
    }
}
