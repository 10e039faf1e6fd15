import IMHTTP
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
}
