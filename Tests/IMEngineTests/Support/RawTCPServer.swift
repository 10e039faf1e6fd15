import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// A blocking TCP server on 127.0.0.1 for byte-level peers (a SOCKS5 proxy that refuses, an
/// HTTP token endpoint): each connection is served on a thread of its own by `serve`.
final class RawTCPServer: Sendable {
    let port: UInt16
    private let fd: Int32
    private let stopped = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)

    /// - Parameter serve: gets the connected descriptor; it is closed when `serve` returns.
    init(serve: @escaping @Sendable (Int32) -> Void) throws {
        (fd, port) = try Self.listen()
        let fd = self.fd
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .relaxed) {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&entry, 1, 50) > 0 else { continue }
                let client = accept(fd, nil, nil)
                guard client >= 0 else { continue }
                accepted.add(1, ordering: .relaxed)
                Thread.detachNewThread {
                    serve(client)
                    close(client)
                }
            }
            close(fd)
        }
    }

    /// How many connections were accepted.
    var connectionCount: Int { accepted.load(ordering: .relaxed) }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// A socket listening on 127.0.0.1 on a free port.
    private static func listen() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound, Glibc.listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("bind/listen: \(errno)")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Reads exactly `count` bytes, or fewer if the peer closes first.
    static func receive(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while bytes.count < count {
            let read = recv(fd, &buffer, count - bytes.count, 0)
            guard read > 0 else { break }
            bytes += buffer[..<read]
        }
        return bytes
    }

    /// Reads until `terminator` was seen (or the peer closes).
    static func receive(_ fd: Int32, until terminator: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            bytes.append(byte)
            if bytes.count >= terminator.count && Array(bytes.suffix(terminator.count)) == terminator { break }
        }
        return bytes
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
