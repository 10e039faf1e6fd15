import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// A will one node holds for a device that is back on another node within the Will Delay
/// Interval is not sent (MQTT-3.1.3-9), as on one node: whether the device came back after its
/// connection ended, took the connection over while it was still up, or came back just before
/// the connection here ended.
@Suite(.timeLimit(.minutes(1)))
struct ClusterWillTests {
    @Test func aDeviceBackOnAnotherNodeWithinTheWillDelayLeavesNoWill() async throws {
        try await TestCluster.with(2) { cluster in
            let (node1, node2) = (cluster.nodes[0], cluster.nodes[1])
            let bob = try await node2.loggedIn("bob", device: "phone-b")

            let ended = try await connectWithWill(node1, "alice", device: "phone-a", text: "after a close")
            ended.close()
            // Node 1 has seen the connection end (it holds the will) before the device is back.
            try await Task.sleep(for: .milliseconds(300))
            _ = try await node2.loggedIn("alice", device: "phone-a")

            let takenOver = try await connectWithWill(node1, "carol", device: "phone-c", text: "taken over")
            _ = try await node2.loggedIn("carol", device: "phone-c")
            guard case .disconnect(let disconnect)? = await takenOver.next(within: .seconds(5)) else {
                Issue.record("carol's first connection was not taken over")
                return
            }
            #expect(disconnect.reasonCode == .sessionTakenOver)

            // Ended here right after the login there, during the takeover's grace.
            let endedDuringGrace = try await connectWithWill(node1, "dave", device: "phone-d", text: "ended during the grace")
            _ = try await node2.loggedIn("dave", device: "phone-d")
            endedDuringGrace.close()

            // Past the delays, with a margin.
            if case .publish(let will)? = await bob.next(within: .seconds(Int64(Self.willDelay) + 1)) {
                Issue.record("a will was sent: \((try? TextMessage.decode(will.payload).text) ?? "?")")
            }
        }
    }

    /// How long the wills wait (s): long enough for a login on the other node and its notice on
    /// a busy machine (with 2 s, the cluster phase of CI saw a will sent).
    private static let willDelay: UInt32 = 5

    /// A connection of `user` on `node` whose will (to bob) waits `willDelay`.
    private func connectWithWill(_ node: TestServer, _ user: String, device: String, text: String) async throws -> MQTTTestClient {
        let client = try await MQTTTestClient.open(port: node.port)
        try await client.send(.connect(Connect(
            clientIdentifier: device, cleanStart: false, keepAlive: 30, userName: TestServer.appKey,
            password: Array(try await node.token(user).utf8),
            will: Will(topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: text, cid: device).encoded(),
                       qos: .atLeastOnce, properties: [.willDelayInterval(Self.willDelay)]),
            properties: [.sessionExpiryInterval(3600)])))
        guard case .connack(let connack)? = await client.next(), connack.reasonCode == .success else {
            throw TestFailure("the login of \(user) with a will failed")
        }
        return client
    }
}
