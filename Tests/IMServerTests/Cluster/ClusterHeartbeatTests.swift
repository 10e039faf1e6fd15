import IMServer
import Testing
import TestSupport

/// A node the others took for dead (its heartbeat stopped reaching PostgreSQL) writes its
/// presence again once its heartbeat is back, so its devices count as online everywhere again.
@Suite(.timeLimit(.minutes(1)))
struct ClusterHeartbeatTests {
    @Test func aNodeTakenForDeadRejoinsWithItsDevices() async throws {
        try await TestCluster.with(2) { cluster in
            let (node1, node2) = (cluster.nodes[0], cluster.nodes[1])
            let bob = try await node2.loggedIn("bob", device: "phone")
            #expect(await node1.backend.isOnline(appKey: TestServer.appKey, userID: "bob"))
            // Node 2's heartbeats now look 20 s old: node 1 removes it and its presence.
            node2.advanceWallClock(by: -20_000)
            #expect(await eventually(within: .seconds(10)) { await !node1.backend.isOnline(appKey: TestServer.appKey, userID: "bob") })
            node2.advanceWallClock(by: 20_000)
            #expect(await eventually(within: .seconds(10)) { await node1.backend.isOnline(appKey: TestServer.appKey, userID: "bob") })
            try await bob.send(.pingreq)
            #expect(await bob.next() == .pingresp)
        }
    }
}
