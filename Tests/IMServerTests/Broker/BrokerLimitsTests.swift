import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Limits and administration that reach live connections.
@Suite(.timeLimit(.minutes(1)))
struct BrokerLimitsTests {
    @Test func aPacketOverTheMaximumSizeClosesTheConnection() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.maxPacketSize = 1024
        let server = try await TestServer.start(directory: directory, limits: limits)
        let client = try await server.loggedIn("alice", device: "phone-a")
        let other = try await server.loggedIn("bob", device: "phone-b")
        _ = try? await client.sendText(String(repeating: "x", count: 2000), to: "bob", cid: "big", packetID: 1)
        #expect(await client.closed())
        // The others carry on.
        try await other.send(.pingreq)
        #expect(await other.next() == .pingresp)
        await server.stop()
    }

    /// `imserver app block` writes to the data directory from another process; the running
    /// server notices within a second or two and refuses logins with 31008's reason, then lifts it.
    @Test func anAppBlockedFromOutsideIsRefusedAndThenLifted() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let token = try await server.token("alice")
        let admin = try await directory.open()
        try await admin.setAppBlocked(TestServer.appKey, true)

        func login() async throws -> (ReasonCode?, String?) {
            let client = try await MQTTTestClient.open(port: server.port)
            defer { client.close() }
            let connack = try await client.login(appKey: TestServer.appKey, token: token, device: "phone-a")
            return (connack?.reasonCode, connack?.properties.userProperty(IMUserProperty.error))
        }
        var outcome = try await login()
        for _ in 0..<30 where outcome.0 == .success {
            try await Task.sleep(for: .milliseconds(100))
            outcome = try await login()
        }
        #expect(outcome.0 == .notAuthorized && outcome.1 == "app-blocked")

        try await admin.setAppBlocked(TestServer.appKey, false)
        for _ in 0..<30 where outcome.0 != .success {
            try await Task.sleep(for: .milliseconds(100))
            outcome = try await login()
        }
        #expect(outcome.0 == .success)
        await admin.close()
        await server.stop()
    }
}
