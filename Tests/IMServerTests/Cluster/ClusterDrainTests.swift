import IMHTTP
import IMPostgres
import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// A node of several on one PostgreSQL that stops sends its clients to the other live nodes
/// (DISCONNECT 0x9C with a Server Reference), in turn; the last one says it is shutting down.
@Suite(.timeLimit(.minutes(1)))
struct ClusterDrainTests {
    @Test func aStoppingNodeSendsItsClientsToTheOtherLiveNodesInTurn() async throws {
        try await TestCluster.with(3) { cluster in
            let stopping = cluster.nodes[0]
            var clients: [MQTTTestClient] = []
            for index in 0..<4 { clients.append(try await stopping.loggedIn("user\(index)", device: "phone-\(index)")) }
            await stopping.stop()
            var references: [String: Int] = [:]
            for client in clients {
                guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); continue }
                #expect(disconnect.reasonCode == .useAnotherServer)
                references[disconnect.properties.serverReference ?? "none", default: 0] += 1
            }
            #expect(references == ["127.0.0.1:\(cluster.nodes[1].port)": 2, "127.0.0.1:\(cluster.nodes[2].port)": 2])
            // Where it was sent, the device logs in.
            let moved = try await cluster.nodes[1].loggedIn("user0", device: "phone-0")
            try await moved.send(.pingreq)
            #expect(await moved.next() == .pingresp)
        }
    }

    @Test func theLastLiveNodeSaysItIsShuttingDown() async throws {
        try await TestCluster.with(2) { cluster in
            await cluster.nodes[1].stop()
            let client = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            await cluster.nodes[0].stop()
            guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); return }
            #expect(disconnect.reasonCode == .serverShuttingDown && disconnect.properties.serverReference == nil)
        }
    }

    @Test func readinessFailsWhileTheStoreIsOutOfReachAndAClusterScrapeCountsTheNodes() async throws {
        try await TestCluster.with(2) { cluster in
            let node = cluster.nodes[0]
            let loop = try EventLoop(name: "readyz-client")
            defer { loop.shutdown() }
            func get(_ path: String) async throws -> HTTPResponse {
                let client = try await APITestClient.connect(port: node.metricsPort, on: loop)
                defer { client.close() }
                var reader = client.reader()
                try await client.send(HTTPRequest(method: "GET", target: path, headers: ["Host": "127.0.0.1"]))
                return try await reader.next()
            }
            #expect(try await get("/readyz").status == .ok)
            let metrics = String(decoding: try await get("/metrics").body, as: UTF8.self)
            #expect(metrics.contains("\nimserver_cluster_live_nodes 2\n"))
            #expect(metrics.contains("\nimserver_cluster_notices_sent_total "))
            cluster.postgres.stop()
            let refused = try await get("/readyz")
            #expect(refused.status == .serviceUnavailable)
            #expect(String(decoding: refused.body, as: UTF8.self).hasPrefix("the store is out of reach: "))
            #expect(try await get("/healthz").status == .ok)
            // A scrape still answers, without the store's figures.
            let late = String(decoding: try await get("/metrics").body, as: UTF8.self)
            #expect(late.contains("imserver_logins_total") && !late.contains("imserver_queued_deliveries"))
        }
    }

    /// A client's PUBLISH being stored when its node stops is stored and acknowledged before the
    /// DISCONNECT sends the client away; the store is closed only once the call has committed.
    @Test func aStoreUnderWayAtAStopIsCommitted() async throws {
        try await TestCluster.with(2) { cluster in
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone-a")
            _ = try await cluster.nodes[1].loggedIn("bob", device: "phone-b")
            // Another session holds the message table for a while: alice's message waits in the store call.
            let url = cluster.storeURL
            let holder = Task.detached {
                let connection = try PostgresConnection.connect(url)
                defer { connection.close() }
                try connection.executeScript("BEGIN; LOCK TABLE message IN EXCLUSIVE MODE; SELECT pg_sleep(1.5); COMMIT;")
            }
            try await Task.sleep(for: .milliseconds(300))
            try await alice.send(.publish(Publish(
                topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: "late", cid: "c1").encoded(), qos: .atLeastOnce,
                packetIdentifier: 1, properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType)])))
            try await Task.sleep(for: .milliseconds(200))
            await cluster.nodes[0].stop()
            try await holder.value
            // Acknowledged before alice is sent away, so her engine has nothing to send again.
            guard case .puback(let ack)? = await alice.next() else { Issue.record("no PUBACK before the DISCONNECT"); return }
            #expect(ack.packetIdentifier == 1 && ack.reasonCode == .success)
            guard case .disconnect(let disconnect)? = await alice.next() else { Issue.record("no DISCONNECT"); return }
            #expect(disconnect.reasonCode == .useAnotherServer)
            // Committed before node 1 closed its store: bob, on node 2, has it.
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone-b")
            guard case .publish(let delivery)? = await bob.next() else { Issue.record("bob got nothing"); return }
            #expect(try TextMessage.decode(delivery.payload).text == "late")
        }
    }
}
