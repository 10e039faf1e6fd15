import Foundation
import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// Bytes of the wrong kind on each port, garbage after a handshake, and a crowd of handshakes
/// that stall half-way: each connection is closed in bounded time, and others are served.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TLSHostileInputTests {
    static let loop = MQTTTestClient.loops.next()

    /// Raw chunks (no MQTT framing) from `port` after writing `bytes`, until the server closes.
    func exchange(_ bytes: [UInt8], port: UInt16, tls: TLSConnectSettings? = nil) async throws -> (received: [UInt8], closed: Bool) {
        let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw), tls: tls)
        let connection = try await Connection.connect(to: "127.0.0.1", port: port, options: options, on: Self.loop)
        let frames = connection.frames()
        try await connection.write(bytes)
        let received = try await withTimeout(.seconds(5)) {
            var received: [UInt8] = []
            do {
                for try await chunk in frames { received += chunk }
            } catch {}
            return received
        }
        // Reaching here means the stream ended: the server closed within the time allowed.
        return (received, true)
    }

    @Test func plaintextMQTTOnTheTLSPortGetsAProtocolVersionAlertAndIsClosed() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let connect = Packet.connect(Connect(clientIdentifier: "plain", userName: TestServer.appKey, password: Array("x".utf8)))
        let (received, closed) = try await exchange(connect.encoded(), port: try #require(server.tlsPort))
        #expect(closed)
        #expect(received == [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46])
        await server.stop()
    }

    @Test func aClientHelloOnThePlaintextPortIsClosedQuickly() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let started = ContinuousClock.now
        await #expect(throws: TransportError.self) {
            _ = try await MQTTTestClient.open(port: server.port, tls: try fixture.client())
        }
        #expect(ContinuousClock.now - started < .seconds(3))
        // The plaintext port still serves.
        let alice = try await server.loggedIn("alice", device: "phone-a")
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)
        await server.stop()
    }

    @Test func garbageAfterTheHandshakeClosesTheConnection() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let (_, closed) = try await exchange(Array(repeating: 0xFF, count: 64), port: try #require(server.tlsPort),
                                             tls: try fixture.client())
        #expect(closed)
        await server.stop()
    }

    @Test func theHTTPSAPIStillRefusesABadSignature() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let timestamp = String(Int64(Date().timeIntervalSince1970 * 1000))
        let request = "POST /user/checkOnline.json HTTP/1.1\r\nHost: localhost\r\nApp-Key: \(TestServer.appKey)\r\n"
            + "Nonce: 12345\r\nTimestamp: \(timestamp)\r\nSignature: 0000\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 8\r\nConnection: close\r\n\r\nuserId=a"
        // Under CI's load a handshake and request can outlast the 3 s head timeout (408): that
        // request is sent again, as a client would; the answer that counts is the signature's.
        var answer = ""
        for _ in 1...3 {
            let (received, closed) = try await exchange(Array(request.utf8), port: try #require(server.apiTLSPort), tls: try fixture.client())
            #expect(closed)
            answer = String(decoding: received, as: UTF8.self)
            guard answer.hasPrefix("HTTP/1.1 408 ") else { break }
        }
        #expect(answer.hasPrefix("HTTP/1.1 401 "))
        await server.stop()
    }

    @Test func aThousandHandshakesStalledHalfWayAreClosedWhileOthersAreServed() async throws {
        let count = 1000
        let limit = try ProcessLimits.raiseOpenFileLimit()
        try #require(limit >= 2 * count + 500, "the open-file limit (\(limit)) is too low for \(count) connections")
        let fixture = try TLSFixture()
        var limits = ServerLimits()
        limits.connectTimeout = .seconds(2)
        let server = try await fixture.server(limits: limits)
        let port = try #require(server.tlsPort)
        let sockets = SilentSockets()
        try await offPool { try sockets.open(count, port: port, greeting: TLSFixture.halfClientHello, deadline: .now + .seconds(20)) }

        try await server.expectServed(despite: sockets, what: "handshakes", tls: try fixture.client())
        await server.stop()
    }
}
