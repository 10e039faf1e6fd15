@testable import IMTransport
import MQTT
import Testing
import TestSupport

/// A WebSocket server that pings its client as fast as it can and reads nothing (a hostile
/// endpoint named in a `ws://` profile): the client answers only the latest ping and drops the
/// connection as a slow reader once the pongs it owes pass its output limit, its memory flat.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct WebSocketPingFloodClientTests {
    /// Empty pings, unmasked as a server sends them, 64 KiB at a time.
    static let pings: [UInt8] = {
        var writer = ByteWriter()
        for _ in 0..<(64 * 1024 / 2) { WebSocketFrame(opcode: .ping, payload: []).encode(into: &writer) }
        return writer.bytes
    }()

    @Test func aServerFloodingPingsIsDroppedAsASlowReader() async throws {
        let listener = try RawSocket.listen()
        defer { listener.close() }
        let loop = try EventLoop(name: "ws-ping-flood")
        defer { loop.shutdown() }
        async let flooded: Flood.Outcome = onThread {
            let socket = try listener.accept()
            defer { socket.close() }
            var request: [UInt8] = []
            while request.firstRange(of: Array("\r\n\r\n".utf8)) == nil { request += try socket.receive() }
            let text = String(decoding: request, as: UTF8.self)
            let key = text.split(separator: "\r\n").first { $0.hasPrefix("Sec-WebSocket-Key: ") }?.dropFirst(19) ?? ""
            let answer = Array(WebSocketClientErrorTests.switching(String(key)).utf8)
            return Flood(prefix: answer, chunk: Self.pings).run(on: socket.fd, for: .seconds(15))
        }
        let before = try #require(ProcessMemory.of())
        let connection = try await Connection.connect(
            to: "127.0.0.1", port: listener.port, options: ConnectOptions(timeout: .seconds(5), webSocket: WebSocketSettings()), on: loop)
        let frames = connection.frames()
        let ended: TransportError? = try await withTimeout(.seconds(20)) {
            do {
                for try await _ in frames {}
                return nil
            } catch {
                return error as? TransportError
            }
        }
        let outcome = try await flooded
        let after = try #require(ProcessMemory.of())
        #expect(ended == .outboundBufferOverflow(limit: connection.options.outboundLimit), "\(String(describing: ended))")
        guard case .cut = outcome else {
            Issue.record("the client did not drop the flooding server: \(outcome)")
            return
        }
        let grown = after.anonymous - before.anonymous
        #expect(grown < 256 * 1024, "memory grew by \(grown) KiB")
    }
}
