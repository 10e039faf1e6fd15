import Foundation
import IMServer
import Testing
import TestSupport

/// Stock clients (paho-mqtt, mosquitto_pub/mosquitto_sub) against the embedded server: the
/// interop faults of issue 16, each checked with a peer nobody here wrote.
@Suite(.timeLimit(.minutes(1)))
struct StockPeerTests {
    /// Fault 4: a packet over the server's Maximum Packet Size gets DISCONNECT 0x95, not a reset.
    @Test func anOversizedPublishGetsDisconnect0x95() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.maxPacketSize = 2048
        let server = try await TestServer.start(directory: directory, limits: limits)
        let lines = try await PahoPeer.run(
            "oversize", port: server.port, appKey: TestServer.appKey, token: try await server.token("alice"),
            ["--bytes", "4000"])
        #expect(lines == ["connack 00", "disconnect 95"])
        await server.stop()
    }
}
