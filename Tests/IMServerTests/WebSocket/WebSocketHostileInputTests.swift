import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// Frames and upgrades no client may send to the WebSocket listener: each is answered with
/// the right close code or HTTP status and closed in bounded time, while others are served.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct WebSocketHostileInputTests {
    static let loop = MQTTTestClient.loops.next()
    static let upgrade = "GET /mqtt HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n"

    /// Everything the server sends after `bytes`, until it closes (within 5 s, or the test fails).
    func exchange(_ bytes: [UInt8], port: UInt16) async throws -> [UInt8] {
        let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw))
        let connection = try await Connection.connect(to: "127.0.0.1", port: port, options: options, on: Self.loop)
        let frames = connection.frames()
        try await connection.write(bytes)
        return try await withTimeout(.seconds(5)) {
            var received: [UInt8] = []
            do {
                for try await chunk in frames { received += chunk }
            } catch {}
            return received
        }
    }

    /// The close frame after the server's 101: its code.
    func closeCode(after frame: [UInt8], port: UInt16) async throws -> WebSocketCloseCode? {
        let received = try await exchange(Array(Self.upgrade.utf8) + frame, port: port)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"), "\(text)")
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        guard let end = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return nil }
        var reader = ByteReader(Array(received[end...]))
        guard let close = try WebSocketFrame.decode(from: &reader, limits: WebSocketLimits()), close.opcode == .close else { return nil }
        return try WebSocketFrame.parseClose(close.payload).0
    }

    static func frame(_ opcode: WebSocketOpcode, fin: Bool = true, masked: Bool = true, payload: [UInt8] = []) -> [UInt8] {
        var writer = ByteWriter()
        WebSocketFrame(fin: fin, opcode: opcode, maskingKey: masked ? [1, 2, 3, 4] : nil, payload: payload).encode(into: &writer)
        return writer.bytes
    }

    @Test func eachBadFrameGetsItsCloseCode() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.maxPacketSize = 64 * 1024
        let server = try await TestServer.start(directory: directory, limits: limits)
        let port = try #require(server.webSocketPort)
        // Only the header of a frame over the limit: refused before its payload arrives.
        let oversized: [UInt8] = [0x82, 0xFF, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4]
        #expect(try await closeCode(after: oversized, port: port) == .messageTooBig)
        // Two fragments within the frame limit, over the message limit together: the first
        // starts a CONNECT of 60,000 bytes, which the broker waits for.
        let connectStart: [UInt8] = [0x10, 0xE0, 0xD4, 0x03] + Array(repeating: 0, count: 40_000)
        let fragments = Self.frame(.binary, fin: false, payload: connectStart) + Self.frame(.continuation, payload: Array(repeating: 0, count: 40_000))
        #expect(try await closeCode(after: fragments, port: port) == .messageTooBig)
        #expect(try await closeCode(after: Self.frame(.binary, masked: false, payload: [0xC0, 0]), port: port) == .protocolError)
        #expect(try await closeCode(after: Self.frame(WebSocketOpcode(rawValue: 3)), port: port) == .protocolError)
        #expect(try await closeCode(after: Self.frame(.ping, fin: false), port: port) == .protocolError)
        #expect(try await closeCode(after: Self.frame(.text, payload: [0x41]), port: port) == .unsupportedData)
        #expect(try await closeCode(after: Self.frame(.continuation, payload: [0]), port: port) == .protocolError)
        // A ping is answered with a pong carrying its payload; a close is echoed.
        let pong = try await exchange(Array(Self.upgrade.utf8) + Self.frame(.ping, payload: [7]) + Self.frame(.close), port: port)
        #expect(pong.suffix(7) == [0x8A, 0x01, 0x07, 0x88, 0x02, 0x03, 0xE8])
        await server.stop()
    }

    @Test(arguments: [
        ("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", "", 400),
        ("Sec-WebSocket-Protocol: mqtt\r\n", "Sec-WebSocket-Protocol: wamp\r\n", 400),
        ("GET /mqtt", "GET /other", 404),
        ("Sec-WebSocket-Version: 13", "Sec-WebSocket-Version: 8", 426),
        ("Upgrade: websocket\r\n", "", 426),
        ("GET /mqtt", "POST /mqtt", 405),
    ])
    func aBadUpgradeGetsItsHTTPStatus(field: String, replacement: String, status: Int) async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let request = Self.upgrade.replacingOccurrences(of: field, with: replacement)
        let received = try await exchange(Array(request.utf8), port: try #require(server.webSocketPort))
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 \(status) "), "\(String(decoding: received, as: UTF8.self))")
        await server.stop()
    }

    @Test func aTLSClientHelloOnTheWebSocketPortGets400AtOnce() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let started = ContinuousClock.now
        let halfHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
        let received = try await exchange(halfHello, port: try #require(server.webSocketPort))
        #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(ContinuousClock.now - started < .seconds(2), "answered at once, not after the connect timeout")
        await server.stop()
    }

    @Test func aThousandUpgradesThatNeverFinishAreClosedWhileOthersAreServed() async throws {
        let count = 1000
        let limit = try ProcessLimits.raiseOpenFileLimit()
        try #require(limit >= 2 * count + 500, "the open-file limit (\(limit)) is too low for \(count) connections")
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.connectTimeout = .seconds(2)
        let server = try await TestServer.start(directory: directory, limits: limits)
        let port = try #require(server.webSocketPort)
        let sockets = SilentSockets()
        let half = Array(Self.upgrade.utf8.prefix(60))
        try await offPool { try sockets.open(count, port: port, greeting: half, deadline: .now + .seconds(20)) }

        try await server.expectServed(despite: sockets, what: "upgrades", webSocket: true)
        await server.stop()
    }
}
