import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// PostgreSQL stopped under running nodes: logins and sends fail with retryable codes, nothing
/// crashes, and service (with notices between nodes) resumes once it is back.
@Suite(.timeLimit(.minutes(1)))
struct ClusterOutageTests {
    @Test func anOutageRefusesWithRetryableCodesAndServiceResumesAfterIt() async throws {
        try await TestCluster.with(2) { cluster in
            let (node1, node2) = (cluster.nodes[0], cluster.nodes[1])
            let alice = try await node1.loggedIn("alice", device: "phone")
            let aliceToken = try await node1.token("alice")
            cluster.postgres.stop()

            let refused = try await MQTTTestClient.open(port: node1.port)
            let connack = try await refused.login(appKey: TestServer.appKey, token: try await node1.token("carol"), device: "phone")
            #expect(connack?.reasonCode == .serverUnavailable)

            // A send that cannot be stored ends the connection with 0x89: the client comes back and
            // sends again. Under load the queue read that follows alice's SUBSCRIBE (its SUBACK
            // goes first) can still be waiting when PostgreSQL stops: it fails the same way, and
            // then the connection is already closed when the send is made.
            do {
                try await alice.send(.publish(Publish(
                    topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: "during", cid: "c1").encoded(),
                    qos: .atLeastOnce, packetIdentifier: 1)))
            } catch {
                #expect(await alice.closed(within: .seconds(5)), "the send failed on an open connection: \(error)")
            }
            guard case .disconnect(let busy)? = await alice.next(within: .seconds(10)) else { Issue.record("no DISCONNECT"); return }
            #expect(busy.reasonCode == .serverBusy)

            try cluster.postgres.restart()
            let bob = try await loginSoon(node2, "bob")
            let back = try await MQTTTestClient.open(port: node1.port)
            #expect(try await back.login(appKey: TestServer.appKey, token: aliceToken, device: "phone")?.reasonCode == .success)
            // The resend of the message the outage refused, now stored and delivered across nodes.
            #expect(try await back.sendText("during", to: "bob", cid: "c1", packetID: 2) == .success)
            guard case .publish(let delivered)? = await bob.next(within: .seconds(5)) else { Issue.record("bob got nothing"); return }
            #expect(try TextMessage.decode(delivered.payload).text == "during")
        }
    }

    @Test func aDeviceWhoseQueueCannotBeReadIsAskedToComeBack() async throws {
        try await TestCluster.with(1) { cluster in
            let node = cluster.nodes[0]
            let dora = try await MQTTTestClient.open(port: node.port)
            #expect(try await dora.login(appKey: TestServer.appKey, token: try await node.token("dora"), device: "phone")?.reasonCode == .success)
            cluster.postgres.stop()
            // Subscribing reads the queue, which fails: the device is told to come back, not left
            // believing it has everything.
            try await dora.send(.subscribe(Subscribe(
                packetIdentifier: 1, subscriptions: [Subscribe.Subscription(IMTopic.inboxFilter, options: SubscriptionOptions(qos: .atLeastOnce))])))
            var busy = false
            while let packet = await dora.next(within: .seconds(10)) {
                if case .disconnect(let disconnect) = packet {
                    busy = disconnect.reasonCode == .serverBusy
                    break
                }
            }
            #expect(busy, "no DISCONNECT 0x89 after a queue read that failed")
        }
    }

    /// Logs `user` in on `node`, trying again while the pool finds its way back to PostgreSQL.
    private func loginSoon(_ node: TestServer, _ user: String) async throws -> MQTTTestClient {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do {
                return try await node.loggedIn(user, device: "phone")
            } catch where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }
}
