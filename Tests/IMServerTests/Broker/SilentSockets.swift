import Glibc

/// Many TCP connections to 127.0.0.1 that never send a byte, driven with non-blocking sockets
/// and poll(2) from one thread: what a flood of half-open logins looks like to the server.
///
/// Used from one thread at a time (through `offPool`, since poll blocks), hence unchecked.
final class SilentSockets: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One connection: its descriptor (-1 once closed), when connect(2) was called, when the
    /// server closed it, and what the server said before (with `holdingOn`).
    struct Entry {
        var fd: Int32
        var connectStartedAt: ContinuousClock.Instant
        var closedAt: ContinuousClock.Instant?
        var answer: [UInt8] = []
    }

    private(set) var entries: [Entry] = []

    deinit {
        for entry in entries where entry.fd >= 0 { close(entry.fd) }
    }

    /// Opens `count` connections to `port`, `batch` at a time, each batch connected before the
    /// next starts (the listener's backlog is finite); throws past `deadline`. Each sends
    /// `greeting` once connected (such as half a TLS ClientHello) and then nothing more.
    func open(_ count: Int, port: UInt16, batch: Int = 250, greeting: [UInt8] = [], deadline: ContinuousClock.Instant) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        while entries.count < count {
            let first = entries.count
            for _ in 0..<min(batch, count - first) {
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard fd >= 0 else { throw Failure(description: "socket: errno \(errno) after \(entries.count) sockets") }
                let started = ContinuousClock.now
                let result = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                entries.append(Entry(fd: fd, connectStartedAt: started))
                guard result == 0 || errno == EINPROGRESS else { throw Failure(description: "connect: errno \(errno)") }
            }
            try waitUntilConnected(first..<entries.count, deadline: deadline)
            if !greeting.isEmpty {
                for entry in entries[first...] where send(entry.fd, greeting, greeting.count, Int32(MSG_NOSIGNAL)) != greeting.count {
                    throw Failure(description: "send: errno \(errno)")
                }
            }
        }
    }

    private func waitUntilConnected(_ range: Range<Int>, deadline: ContinuousClock.Instant) throws {
        var waiting = Array(range)
        while !waiting.isEmpty {
            guard ContinuousClock.now < deadline else { throw Failure(description: "\(waiting.count) connections did not complete") }
            var descriptors = waiting.map { pollfd(fd: entries[$0].fd, events: Int16(POLLOUT), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 100) >= 0 || errno == EINTR else {
                throw Failure(description: "poll: errno \(errno)")
            }
            var still: [Int] = []
            for (index, descriptor) in zip(waiting, descriptors) {
                guard descriptor.revents != 0 else {
                    still.append(index)
                    continue
                }
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor.fd, SOL_SOCKET, SO_ERROR, &error, &length)
                guard error == 0 else { throw Failure(description: "connection \(index) failed: errno \(error)") }
            }
            waiting = still
        }
    }

    /// Waits up to `timeout` (polling at least once) for the server to close connections,
    /// recording when each closes; returns how many it has not closed. Data from the server on
    /// a silent connection is a failure, unless the peers are `holdingOn`, as a peer that never
    /// closes does: then what the server says before it closes (a refusal) goes into the
    /// entry's `answer`, and our end stays open after the server's (until deinit).
    func awaitClosing(timeout: Duration, holdingOn: Bool = false) throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let open = entries.indices.filter { entries[$0].fd >= 0 && entries[$0].closedAt == nil }
            guard !open.isEmpty else { return 0 }
            var descriptors = open.map { pollfd(fd: entries[$0].fd, events: Int16(POLLIN), revents: 0) }
            let wait = max(0, min(50, (deadline - ContinuousClock.now) / .milliseconds(1)))
            guard poll(&descriptors, nfds_t(descriptors.count), Int32(wait)) >= 0 || errno == EINTR else {
                throw Failure(description: "poll: errno \(errno)")
            }
            for (index, descriptor) in zip(open, descriptors) where descriptor.revents != 0 {
                var bytes = [UInt8](repeating: 0, count: holdingOn ? 4096 : 1)
                let count = recv(descriptor.fd, &bytes, bytes.count, 0)
                if count > 0 {
                    guard holdingOn else { throw Failure(description: "the server sent data on silent connection \(index)") }
                    entries[index].answer += bytes[..<count]
                    continue
                }
                guard count == 0 || errno == ECONNRESET else { continue }
                entries[index].closedAt = ContinuousClock.now
                if holdingOn { continue }
                close(descriptor.fd)
                entries[index].fd = -1
            }
            if ContinuousClock.now >= deadline { return entries.count { $0.fd >= 0 && $0.closedAt == nil } }
        }
    }
}
