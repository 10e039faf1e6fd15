import IMHTTP
import IMJSON
import Testing
import TestSupport

/// The server API of several nodes: a signed request replayed to another node is refused, as
/// it is by the node that served it (the nonces are in the shared store).
@Suite(.timeLimit(.minutes(1)))
struct ClusterAPITests {
    @Test func aRequestReplayedToAnotherNodeIsRefused() async throws {
        try await TestCluster.with(2) { cluster in
            let signing = APISigner(appKey: TestServer.appKey, secret: TestServer.secret).headers(timestamp: cluster.nodes[0].now())
            let request = APIRequests.post("/user/checkOnline.json", [("userId", "alice")], signing: signing)
            var statuses: [HTTPStatus] = []
            for node in cluster.nodes + [cluster.nodes[0]] {
                let client = try await APITestClient.connect(port: node.apiPort, on: MQTTTestClient.loops.next())
                defer { client.close() }
                try await client.send(request)
                var reader = client.reader()
                statuses.append(try await reader.next().status)
            }
            #expect(statuses == [.ok, .unauthorized, .unauthorized])
        }
    }
}
