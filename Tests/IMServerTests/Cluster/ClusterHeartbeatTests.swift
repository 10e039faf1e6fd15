import IMPostgres
import IMProtocol
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

/// A node whose listener lost its connection catches up on the logins it missed meanwhile.
@Suite(.timeLimit(.minutes(1)))
struct ClusterCatchUpTests {
    @Test func aLoginMissedWhileTheListenerWasAwayIsCarriedOutWhenItReconnects() async throws {
        try await TestCluster.with(2) { cluster in
            let phone = try await cluster.nodes[1].loggedIn("alice", device: "phone-a")
            // What node 1 would have written for a newer login of alice's other phone, had
            // node 2 been cut off when its notice went out: the row, without the notice.
            let connection = try PostgresConnection.connect(cluster.storeURL)
            defer { connection.close() }
            _ = try connection.execute("""
                INSERT INTO presence(node, connection, app_key, user_id, device_id, platform, since)
                VALUES ('node-1', 999, $1, 'alice', 'phone-b', 'mobile', 0)
                """, [.text(TestServer.appKey)])
            try await Task.sleep(for: .milliseconds(300))
            try await phone.send(.pingreq)
            #expect(await phone.next() == .pingresp, "nothing happens without a notice")
            // The listeners' connections drop; each node catches up once it is back.
            _ = try connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
            guard case .disconnect(let kicked)? = await phone.next(within: .seconds(10)) else { Issue.record("not kicked"); return }
            #expect(kicked.reasonCode == .sessionTakenOver)
            #expect(kicked.properties.userProperty(IMUserProperty.error) == "other-device-login")
        }
    }
}
