import IMProtocol
import IMServer
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
}
