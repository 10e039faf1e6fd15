import Glibc
@testable import IMTransport
import Synchronization

/// A SOCKS5 proxy for tests: CONNECT only, and every tunnel goes to 127.0.0.1:`targetPort`
/// whatever the client asked, so no test ever leaves loopback.
final class TestSOCKS5Proxy: Sendable {
    struct Request: Equatable, Sendable {
        var addressType: UInt8
        var host: String
        var port: UInt16
    }

    let port: UInt16
    private let listener: RawSocket
    private let targetPort: UInt16
    private let credentials: (String, String)?
    private let refusal: UInt8?
    private let stopped = Atomic<Bool>(false)
    private let seen = Mutex<[Request]>([])

    /// - Parameters:
    ///   - credentials: when set, only username/password authentication with these is accepted.
    ///   - refusal: a reply code to answer every CONNECT with instead of tunnelling.
    init(targetPort: UInt16, credentials: (String, String)? = nil, refusal: UInt8? = nil) throws {
        listener = try RawSocket.listen()
        port = listener.port
        self.targetPort = targetPort
        self.credentials = credentials
        self.refusal = refusal
        let thread = LoopThread.spawn(name: "socks-accept") { [self] in acceptLoop() }
        pthread_detach(thread)
    }

    /// The CONNECT requests received so far.
    var requests: [Request] { seen.withLock { $0 } }

    func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func acceptLoop() {
        defer { listener.close() }
        while !stopped.load(ordering: .relaxed) {
            guard (try? listener.wait(for: Int16(POLLIN), milliseconds: 50)) == true,
                  let client = try? listener.accept(milliseconds: 0) else { continue }
            let thread = LoopThread.spawn(name: "socks-client") { [self] in
                defer { client.close() }
                try? serve(client)
            }
            pthread_detach(thread)
        }
    }

    private func serve(_ client: RawSocket) throws {
        let greeting = try client.receive(exactly: 2)
        let methods = try client.receive(exactly: Int(greeting[1]))
        guard greeting[0] == 5 else { return }
        if let (username, password) = credentials {
            guard methods.contains(0x02) else { return try client.send([5, 0xFF]) }
            try client.send([5, 0x02])
            let version = try client.receive(exactly: 2)
            let user = try client.receive(exactly: Int(version[1]))
            let passwordLength = try client.receive(exactly: 1)
            let pass = try client.receive(exactly: Int(passwordLength[0]))
            let accepted = user == Array(username.utf8) && pass == Array(password.utf8)
            try client.send([1, accepted ? 0 : 1])
            guard accepted else { return }
        } else {
            guard methods.contains(0x00) else { return try client.send([5, 0xFF]) }
            try client.send([5, 0x00])
        }
        let header = try client.receive(exactly: 4)
        guard header[0] == 5, header[1] == 1 else { return try client.send([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]) }
        let host: String
        switch header[3] {
        case 1: host = try client.receive(exactly: 4).map(String.init).joined(separator: ".")
        case 3: host = String(decoding: try client.receive(exactly: Int(try client.receive(exactly: 1)[0])), as: UTF8.self)
        case 4: host = hex(try client.receive(exactly: 16))
        default: return try client.send([5, 8, 0, 1, 0, 0, 0, 0, 0, 0])
        }
        let portBytes = try client.receive(exactly: 2)
        seen.withLock { $0.append(Request(addressType: header[3], host: host, port: UInt16(portBytes[0]) << 8 | UInt16(portBytes[1]))) }
        if let refusal { return try client.send([5, refusal, 0, 1, 0, 0, 0, 0, 0, 0]) }
        let upstream = try RawSocket.connect(port: targetPort)
        defer { upstream.close() }
        try client.send([5, 0, 0, 1, 127, 0, 0, 1, UInt8(targetPort >> 8), UInt8(targetPort & 0xFF)])
        try relay(client, upstream)
    }

    /// Copies bytes both ways until either side closes (or 20 s pass).
    private func relay(_ a: RawSocket, _ b: RawSocket) throws {
        var entries = [pollfd(fd: a.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: b.fd, events: Int16(POLLIN), revents: 0)]
        for _ in 0..<200 {
            guard poll(&entries, 2, 100) >= 0 else { return }
            for (index, entry) in entries.enumerated() where entry.revents != 0 {
                let (from, to) = index == 0 ? (a, b) : (b, a)
                let bytes = try from.receive()
                if bytes.isEmpty { return }
                try to.send(bytes)
            }
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }
}
