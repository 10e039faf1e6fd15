import Glibc
import TestSupport

/// A blocking TCP socket on 127.0.0.1 for test peers that misbehave on purpose.
///
/// Every socket gets 5 s send and receive timeouts, so no helper call can hang a test.
struct RawSocket: Sendable {
    let fd: Int32

    private init(_ fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func make(_ family: Int32 = AF_INET) throws -> RawSocket {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        return RawSocket(fd)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// A socket listening on 127.0.0.1 with a free port.
    static func listen(backlog: Int32 = 16, receiveBufferSize: Int32? = nil) throws -> RawSocket {
        let socket = try make()
        if let size = receiveBufferSize { socket.setOption(SO_RCVBUF, size) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, Glibc.listen(socket.fd, backlog) == 0 else {
            socket.close()
            throw TestFailure("bind/listen: errno \(errno)")
        }
        return socket
    }

    /// Whether ::1 can be bound here.
    static var ipv6LoopbackAvailable: Bool {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
        } == 0
    }

    /// A blocking connection to 127.0.0.1:`port`.
    static func connect(port: UInt16) throws -> RawSocket {
        let socket = try make()
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket.fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            socket.close()
            throw TestFailure("connect to port \(port): errno \(code)")
        }
        socket.setOption(TCP_NODELAY, 1, level: Int32(IPPROTO_TCP))
        return socket
    }

    var port: UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    func setOption(_ name: Int32, _ value: Int32, level: Int32 = SOL_SOCKET) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits up to `milliseconds` for a connection.
    func accept(milliseconds: Int32 = 5000) throws -> RawSocket {
        guard try wait(for: Int16(POLLIN), milliseconds: milliseconds) else { throw TestFailure("accept timed out") }
        let client = Glibc.accept(fd, nil, nil)
        guard client >= 0 else { throw TestFailure("accept: errno \(errno)") }
        return RawSocket(client)
    }

    /// Whether the socket became ready for `events` within `milliseconds`.
    func wait(for events: Int16, milliseconds: Int32) throws -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, milliseconds)
        guard ready >= 0 else { throw TestFailure("poll: errno \(errno)") }
        return ready == 1
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw TestFailure("send: errno \(errno)") }
            offset += count
        }
    }

    /// Up to `maximum` bytes; empty at end of stream. Throws on timeout or error.
    func receive(maximum: Int = 65536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        let count = recv(fd, &buffer, maximum, 0)
        guard count >= 0 else { throw TestFailure("recv: errno \(errno)") }
        return Array(buffer[..<count])
    }

    func receive(exactly count: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let chunk = try receive(maximum: count - bytes.count)
            guard !chunk.isEmpty else { throw TestFailure("end of stream after \(bytes.count) of \(count) bytes") }
            bytes += chunk
        }
        return bytes
    }

    func close() {
        _ = Glibc.close(fd)
    }
}
