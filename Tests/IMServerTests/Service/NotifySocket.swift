import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket the test owns, standing in for systemd's notify socket: bound to a
/// path in a temporary directory, or to an abstract name (given as `@NAME`, as `$NOTIFY_SOCKET`
/// names one). Closed when released.
final class NotifySocket: Sendable {
    /// The name to put in `$NOTIFY_SOCKET`.
    let name: String
    private let descriptor: Int32

    init(name: String) throws {
        self.name = name
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        let length = MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count + (bytes[0] == 0 ? 0 : 1)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else {
            close(descriptor)
            throw TestFailure("bind \(name): errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    /// The next datagram's text, or nil when none comes within `timeout`.
    func next(within timeout: Duration = .seconds(10)) async throws -> String? {
        let descriptor = self.descriptor
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        return try await offPool {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
}
