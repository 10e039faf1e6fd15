import Glibc
@testable import IMTransport
import IMHTTP
import MQTT
import Testing
import TestSupport

/// What a WebSocket client makes of endpoints that do not upgrade as they should: each
/// failure names what the endpoint did (status, subprotocol, close code and reason).
@Suite(.timeLimit(.minutes(1)))
struct WebSocketClientErrorTests {
    /// A one-shot endpoint: reads the upgrade request, answers with `answer(key)`, then reads
    /// until the client closes; returns everything the client sent after the request.
    func withEndpoint(
        answer: @escaping @Sendable (_ key: String) -> [UInt8],
        _ body: @escaping @Sendable (UInt16, EventLoop) async throws -> Void
    ) async throws -> [UInt8] {
        let listener = try RawSocket.listen()
        defer { listener.close() }
        let loop = try EventLoop(name: "ws-client")
        defer { loop.shutdown() }
        async let peer: [UInt8] = onThread {
            let socket = try listener.accept()
            defer { socket.close() }
            var request: [UInt8] = []
            while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil { request += try socket.receive() }
            let text = String(decoding: request, as: UTF8.self)
            let line = text.split(separator: "\r\n").first { $0.hasPrefix("Sec-WebSocket-Key: ") }
            try socket.send(answer(String(line?.dropFirst(19) ?? "")))
            var rest: [UInt8] = []
            while let chunk = try? socket.receive(), !chunk.isEmpty { rest += chunk }
            return rest
        }
        try await withTimeout(.seconds(10)) { try await body(listener.port, loop) }
        return try await peer
    }

    func upgrade(_ port: UInt16, _ loop: EventLoop) async throws(TransportError) -> Connection {
        try await Connection.connect(
            to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5), webSocket: WebSocketSettings()), on: loop)
    }

    static func switching(_ key: String, protocol chosen: String = "mqtt") -> String {
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(WebSocketHandshake.acceptValue(for: key))\r\nSec-WebSocket-Protocol: \(chosen)\r\n\r\n"
    }

    @Test func anHTTPAnswerWithoutUpgradeIsNamedWithItsStatus() async throws {
        _ = try await withEndpoint(answer: { _ in Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8) }) { port, loop in
            let error = await failure { () async throws(TransportError) in try await upgrade(port, loop) }
            #expect(error == .webSocket(.notUpgraded(.notFound)))
            #expect(error?.description.contains("HTTP 404 Not Found instead of 101 Switching Protocols") == true)
        }
    }

    @Test func anotherSubprotocolIsRefused() async throws {
        _ = try await withEndpoint(answer: { Array(Self.switching($0, protocol: "wamp").utf8) }) { port, loop in
            let error = await failure { () async throws(TransportError) in try await upgrade(port, loop) }
            #expect(error == .webSocket(.wrongSubprotocol("wamp")))
        }
    }

    @Test func aWrongAcceptValueIsABrokenHandshake() async throws {
        _ = try await withEndpoint(answer: { _ in Array(Self.switching("another key").utf8) }) { port, loop in
            let error = await failure { () async throws(TransportError) in try await upgrade(port, loop) }
            #expect(error == .webSocket(.badHandshake("Sec-WebSocket-Accept does not match the key sent")))
        }
    }

    @Test func aCloseFrameEndsTheStreamWithItsCodeAndReasonAndIsEchoedMasked() async throws {
        let echoed = try await withEndpoint(answer: { key in
            var writer = ByteWriter()
            WebSocketFrame(opcode: .binary, payload: [0xD0, 0x00]).encode(into: &writer)  // PINGRESP
            WebSocketFrame(opcode: .close, payload: WebSocketFrame.closePayload(.policyViolation, reason: "banned")).encode(into: &writer)
            return Array(Self.switching(key).utf8) + writer.bytes
        }) { port, loop in
            let connection = try await upgrade(port, loop)
            var frames = connection.frames().makeAsyncIterator()
            #expect(try await frames.next() == [0xD0, 0x00])
            do {
                _ = try await frames.next()
                Issue.record("the stream went on after a close frame")
            } catch {
                #expect(error as? TransportError == .webSocket(.closedByPeer(.policyViolation, reason: "banned")))
                #expect("\(error)" == "the peer closed the WebSocket with code 1008 (policy violation): banned")
            }
        }
        var reader = ByteReader(echoed)
        let close = try #require(try WebSocketFrame.decode(from: &reader, limits: WebSocketLimits()))
        #expect(close.opcode == .close && close.maskingKey != nil)
        #expect(try WebSocketFrame.parseClose(close.payload).0 == .policyViolation)
    }
}
