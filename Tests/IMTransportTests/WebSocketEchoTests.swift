import Glibc
import IMTransport
import MQTT
import Testing
import TestSupport

/// MQTT packets over a real loopback WebSocket, both ends ours: the MQTT framing sees a byte
/// stream whatever the frames (a packet over several frames, several packets in one).
struct WebSocketEchoTests {
    @Test func packetsLargerThanAFrameAndBurstsComeBackWhole() async throws {
        let group = try EventLoopGroup(name: "ws-echo")
        let loop = try EventLoop(name: "ws-client")
        defer {
            loop.shutdown()
            group.shutdown()
        }
        let settings = WebSocketSettings(limits: WebSocketLimits(packetSize: 1 << 20))
        let listener = try Listener(group: group, webSocket: settings) { $0.start(EchoHandler()) }
        let options = ConnectOptions(timeout: .seconds(5), webSocket: settings)
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(to: "127.0.0.1", port: listener.localAddress.port, options: options, on: loop)
            defer { connection.close() }
            let frames = [TestFrames.publish(payloadSize: 200_000)] + (0..<50).map { TestFrames.publish(payloadSize: 10, seed: $0) }
            try await expectEcho(of: frames, over: connection)
        }
    }

    @Test func theUpgradeRunsInsideASOCKS5Tunnel() async throws {
        let group = try EventLoopGroup(name: "ws-echo")
        let loop = try EventLoop(name: "ws-client")
        defer {
            loop.shutdown()
            group.shutdown()
        }
        let listener = try Listener(group: group, webSocket: WebSocketSettings()) { $0.start(EchoHandler()) }
        let proxy = try TestSOCKS5Proxy(targetPort: listener.localAddress.port)
        defer { proxy.stop() }
        let options = ConnectOptions(
            timeout: .seconds(5), proxy: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port), webSocket: WebSocketSettings())
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(to: "broker.example", port: 80, options: options, on: loop)
            defer { connection.close() }
            try await expectEcho(of: [TestFrames.pingRequest, TestFrames.publish(payloadSize: 100)], over: connection)
        }
        #expect(proxy.requests.map(\.host) == ["broker.example"], "the name goes to the proxy, the upgrade through it")
    }

    @Test func aPacketSplitOverFragmentsAndTwoPacketsInOneFrameAreCutRight() async throws {
        let group = try EventLoopGroup(name: "ws-echo")
        defer { group.shutdown() }
        let listener = try Listener(group: group, webSocket: WebSocketSettings()) { $0.start(EchoHandler()) }
        let port = listener.localAddress.port
        let publish = TestFrames.publish(payloadSize: 40)
        @Sendable func frame(_ opcode: WebSocketOpcode, fin: Bool, _ payload: ArraySlice<UInt8>) -> [UInt8] {
            var writer = ByteWriter()
            WebSocketFrame(fin: fin, opcode: opcode, maskingKey: [9, 9, 9, 9], payload: Array(payload)).encode(into: &writer)
            return writer.bytes
        }
        let received = try await withTimeout(.seconds(10)) {
            try await onThread {
                let socket = try RawSocket.connect(port: port)
                defer { socket.close() }
                let upgrade = "GET /mqtt HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n"
                // The upgrade, then one PUBLISH in three fragments with a ping between, then two PINGREQs in one frame.
                try socket.send(Array(upgrade.utf8) + frame(.binary, fin: false, publish[..<5])
                    + frame(.ping, fin: true, [1]) + frame(.continuation, fin: false, publish[5..<20])
                    + frame(.continuation, fin: true, publish[20...]) + frame(.binary, fin: true, [0xC0, 0, 0xC0, 0][...]))
                var bytes: [UInt8] = []
                while !bytes.ends(with: [0xC0, 0x00, 0xC0, 0x00]) {
                    let chunk = try socket.receive()
                    guard !chunk.isEmpty else { break }
                    bytes += chunk
                }
                return bytes
            }
        }
        let head = try #require(received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound)
        var reader = ByteReader(Array(received[head...]))
        var payload: [UInt8] = []
        var opcodes: [WebSocketOpcode] = []
        while let next = try WebSocketFrame.decode(from: &reader, limits: WebSocketLimits()) {
            #expect(next.maskingKey == nil, "a server never masks")
            opcodes.append(next.opcode)
            if next.opcode == .binary { payload += next.payload }
        }
        #expect(opcodes.first == .pong)
        #expect(payload == publish + [0xC0, 0x00, 0xC0, 0x00])
    }
}

extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
