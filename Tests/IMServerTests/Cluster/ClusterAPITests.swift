import IMHTTP
import IMJSON
import IMPostgres
import IMProtocol
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

/// A block made while a login's standing is being read: that read predates the block, and the
/// block's sweep of online devices cannot see a login not yet online, so the login is read
/// again and refused (it used to get in, and stay until it disconnected).
@Suite(.timeLimit(.minutes(1)))
struct ClusterLoginRaceTests {
    @Test func aBlockDuringALoginsReadRefusesThatLogin() async throws {
        try await TestCluster.with(1) { cluster in
            let node = cluster.nodes[0]
            let token = try await node.token("alice")
            let holder = try PostgresConnection.connect(cluster.storeURL)
            let watcher = try PostgresConnection.connect(cluster.storeURL)
            defer {
                holder.close()
                watcher.close()
            }
            // A reconnection with kick-enable reads the devices online elsewhere after its
            // standing: that second read waits for this lock, the standing already read.
            _ = try holder.execute("BEGIN")
            _ = try holder.execute("LOCK TABLE presence IN ACCESS EXCLUSIVE MODE")
            let alice = try await MQTTTestClient.open(port: node.port)
            let answer = Task {
                try await alice.login(appKey: TestServer.appKey, token: token, device: "phone", reconnect: true, kickEnable: true)
            }
            var waiting = false
            let deadline = ContinuousClock.now + .seconds(5)
            while !waiting && ContinuousClock.now < deadline {
                let rows = try watcher.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%JOIN presence%'").rows
                waiting = (rows.first?[0].int64 ?? 0) > 0
                if !waiting { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(waiting, "the login's read of the devices online elsewhere never waited for the lock")
            try await node.backend.block(appKey: TestServer.appKey, userIDs: ["alice"], minutes: 10)
            _ = try holder.execute("COMMIT")
            let connack = try await answer.value
            #expect(connack?.reasonCode == .banned)
            #expect(connack?.properties.userProperty(IMUserProperty.error) == IMErrorName.userBlocked.rawValue)
        }
    }
}
