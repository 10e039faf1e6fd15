import Glibc
import IMHTTP
import IMProcess
@testable import IMServer
import Testing
import TestSupport

/// One host's idle connections cannot make the API unavailable to others: each address has
/// its own bound, connections past it are closed at once, and a connection that sends no
/// request head (or stalls in its TLS handshake) is let go quickly.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct APIPeerLimitTests {
    /// A blocking TCP connection to 127.0.0.1:`port` from `source` (any 127/8 address is local).
    private static func connect(from source: String, to port: UInt16) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        func address(_ host: String, _ port: UInt16) -> sockaddr_in {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            return address
        }
        var local = address(source, 0), remote = address("127.0.0.1", port)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, size) } }
        guard bound == 0, connected == 0 else { close(descriptor); return nil }
        return descriptor
    }

    /// Opens `count` idle connections from 127.0.0.2 in a python3 process of its own (their
    /// descriptors count against its limit, not this test process's, which other tests share)
    /// and holds them until its standard input closes.
    private static let idleHolder = """
        import socket, sys
        port, count = int(sys.argv[1]), int(sys.argv[2])
        held = []
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.2", 0))
            s.connect(("127.0.0.1", port))
            held.append(s)
        print(len(held), flush=True)
        sys.stdin.read()
        """

    @Test func fiveThousandIdleConnectionsFromOneAddressLeaveTheAPIToOthers() async throws {
        var options = APIServerOptions()
        // Fewer slots than the idle connections: without a bound per address they take them all.
        options.maxConnections = 4_000
        try await APITestServer.run(options: options) { server in
            let holder = try ChildProcess.spawn(
                "/usr/bin/python3", ["-c", Self.idleHolder, String(server.port), "5000"], stdin: .pipe, stdout: .pipe, stderr: .inherit)
            defer {
                holder.closeStandardInput()
                _ = holder.wait()
            }
            let stdout = try #require(holder.stdout)
            _ = fcntl(stdout, F_SETFL, O_NONBLOCK)
            var line: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64)
            let end = ContinuousClock.now + .seconds(40)
            while !line.contains(UInt8(ascii: "\n")) && ContinuousClock.now < end {
                let count = read(stdout, &buffer, buffer.count)
                if count > 0 { line += buffer[..<count] } else if count == 0 { break } else { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(String(decoding: line, as: UTF8.self) == "5000\n", "the holder did not open them all")
            let response = try await server.exchange(APIRequests.post("/user/kick.json", [("userId", "a")]))
            #expect(response.status == .ok, "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test func aConnectionThatSendsNoHeadIsClosedAfterTheHeadTimeout() async throws {
        try await APITestServer.run { server in
            let started = ContinuousClock.now
            let silent = try #require(Self.connect(from: "127.0.0.3", to: server.port))
            defer { close(silent) }
            // Blocks until the server answers 408 and closes.
            var buffer = [UInt8](repeating: 0, count: 4096)
            var received: [UInt8] = []
            while true {
                let count = read(silent, &buffer, buffer.count)
                if count <= 0 { break }
                received += buffer[..<count]
            }
            let took = ContinuousClock.now - started
            #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 408"))
            #expect(took >= .seconds(2) && took < .seconds(6), "closed after \(took); the request timeout is 10 s")
        }
    }

    @Test(arguments: [false, true])
    func aStalledHTTPSHandshakeIsClosedAtTheHeadTimeout(sendingHalfAClientHello: Bool) async throws {
        let fixture = try TLSFixture()
        try await APITestServer.run(tls: fixture.identity) { server in
            let sockets = SilentSockets()
            let greeting = sendingHalfAClientHello ? TLSFixture.halfClientHello : []
            try await offPool { try sockets.open(1, port: server.port, greeting: greeting, deadline: .now + .seconds(5)) }
            // No 408 can go out before the handshake: waiting to write one held the peer 5 s more.
            let open = try await offPool { try sockets.awaitClosing(timeout: .seconds(6)) }
            #expect(open == 0, "still open 6 s after connecting; the head timeout is 3 s")
            let entry = try #require(sockets.entries.first)
            let took = try #require(entry.closedAt) - entry.connectStartedAt
            #expect(took >= .milliseconds(2_500) && took < .seconds(5), "closed after \(took); the head timeout is 3 s")
        }
    }

    @Test(arguments: [false, true])
    func connectionsPastThePerAddressCapAreClosedAtOnce(overTLS: Bool) async throws {
        let fixture = try TLSFixture()
        var options = APIServerOptions()
        options.maxConnectionsPerAddress = 3
        try await APITestServer.run(options: options, tls: overTLS ? fixture.identity : nil) { server in
            let sockets = SilentSockets()
            // Over TLS each is a handshake under way; the peers never close their end.
            let greeting = overTLS ? TLSFixture.halfClientHello : []
            try await offPool { try sockets.open(10, port: server.port, greeting: greeting, deadline: .now + .seconds(5)) }
            // The three admitted wait for their head timeout (3 s); the seven refused go now,
            // though their peers keep their ends open.
            let open = try await offPool { try sockets.awaitClosing(timeout: .milliseconds(1_500), holdingOn: true) }
            #expect(open == 3, "\(10 - open) of the 7 refused connections were closed within 1.5 s")
            let held = await eventually(within: .milliseconds(500)) { OpenDescriptors.connections(acceptedOn: server.port) == 3 }
            #expect(held, "the server holds \(OpenDescriptors.connections(acceptedOn: server.port)) descriptors for 3 admitted connections")
            for entry in sockets.entries where entry.closedAt != nil {
                let answer = String(decoding: entry.answer, as: UTF8.self)
                // A 503 cannot be said before a TLS handshake, which a refused peer is not granted.
                #expect(overTLS ? answer.isEmpty : answer.hasPrefix("HTTP/1.1 503 "), "\(answer)")
            }
        }
    }
}
