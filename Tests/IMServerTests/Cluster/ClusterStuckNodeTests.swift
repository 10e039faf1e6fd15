import IMPostgres
import IMServer
import Testing
import TestSupport

/// A node silent past the heartbeat limit whose row is locked: its transaction waits on a
/// link black-holed after a statement, or the node is frozen. The live nodes' heartbeats skip
/// it rather than wait; waiting held their own rows, then their stops and every connection of
/// their pools, for as long as the cut lasted (issue 41, seed 7: a node's SIGTERM took 18 s).
@Suite(.timeLimit(.minutes(1)))
struct ClusterStuckNodeTests {
    @Test func aSilentNodeInATransactionDoesNotHoldUpTheOthersHeartbeats() async throws {
        try await TestCluster.with(1) { cluster in
            // The holder's transaction must outlive the server's idle-in-transaction limit.
            let holder = try PostgresConnection.connect(cluster.storeURL + "?options=-c%20idle_in_transaction_session_timeout%3D0")
            let watcher = try PostgresConnection.connect(cluster.storeURL)
            defer {
                holder.close()
                watcher.close()
            }
            _ = try watcher.execute("INSERT INTO node(name, started_at, seen_at) VALUES ('ghost', 0, 0)")
            _ = try holder.execute("BEGIN")
            _ = try holder.execute("UPDATE node SET seen_at = 0 WHERE name = 'ghost'")
            func seen() throws -> Int64 {
                try watcher.execute("SELECT seen_at FROM node WHERE name = 'node-1'").rows.first?[0].int64 ?? 0
            }
            let before = try seen()
            var beat = false
            var deadline = ContinuousClock.now + .seconds(6)
            while !beat && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                beat = try seen() > before
            }
            #expect(beat, "node-1's heartbeat waited for the silent node's locked row")
            _ = try holder.execute("ROLLBACK")
            var removed = false
            deadline = ContinuousClock.now + .seconds(6)
            while !removed && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                removed = try watcher.execute("SELECT 1 FROM node WHERE name = 'ghost'").rows.isEmpty
            }
            #expect(removed, "the silent node was not removed once its transaction ended")
        }
    }
}
