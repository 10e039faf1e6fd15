import Foundation
import IMProcess
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

/// Fault 2: a QoS 0 subscription (the default of mosquitto_sub and paho's subscribe()) gets its
/// messages at QoS 0, once: they leave the device's queue when written.
extension StockPeerTests {
    /// Logs alice's `device` in once (so messages queue for it), then has bob send `count` with paho.
    func queueForAlice(_ server: TestServer, device: String, count: Int) async throws {
        let alice = try await server.token("alice")
        let first = try await PahoPeer.run("receive", port: server.port, appKey: TestServer.appKey, token: alice,
                                           device: device, ["--qos", "0", "--wait", "0.3"])
        #expect(first == ["connack 00", "suback 00"])
        let sent = try await PahoPeer.run("send", port: server.port, appKey: TestServer.appKey,
                                          token: try await server.token("bob"), device: "bob-paho",
                                          ["--to", "alice", "--count", String(count)])
        #expect(sent == ["connack 00", "sent"])
    }

    @Test func pahoSubscribedAtQoS0GetsQoS0DeliveriesOnce() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        try await queueForAlice(server, device: "alice-paho", count: 2)
        let alice = try await server.token("alice")
        let received = try await PahoPeer.run("receive", port: server.port, appKey: TestServer.appKey, token: alice,
                                              device: "alice-paho", ["--qos", "0", "--count", "2"])
        #expect(received == ["connack 00", "suback 00", "message 0 0 im/inbox/bob paho 0", "message 0 0 im/inbox/bob paho 1"])
        let again = try await PahoPeer.run("receive", port: server.port, appKey: TestServer.appKey, token: alice,
                                           device: "alice-paho", ["--qos", "1", "--wait", "0.5"])
        #expect(again == ["connack 00", "suback 01"], "a QoS 0 delivery stayed queued")
        await server.stop()
    }

    @Test func mosquittoSubAtQoS0GetsAQoS0Delivery() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        try await queueForAlice(server, device: "alice-sub", count: 1)
        let token = try await server.token("alice")
        let output = try await offPool {
            try ChildProcess.run("/usr/bin/mosquitto_sub", [
                "-V", "mqttv5", "-h", "127.0.0.1", "-p", String(server.port), "-u", TestServer.appKey,
                "-P", token, "-i", "alice-sub", "-t", "im/inbox/#", "-q", "0",
                "-C", "1", "-F", "%q %t %p"], timeout: .seconds(10))
        }
        #expect(String(decoding: output.stdout, as: UTF8.self).hasPrefix("0 im/inbox/bob {"),
                "\(String(decoding: output.stdout + output.stderr, as: UTF8.self))")
        await server.stop()
    }
}
