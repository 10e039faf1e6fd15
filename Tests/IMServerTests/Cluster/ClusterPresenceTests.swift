import IMPostgres
import Testing
import TestSupport
@testable import IMServer

/// A login's presence row when its transaction runs again: the pool retries a write whose
/// connection was lost, and a loss during COMMIT may follow a commit that happened (issue 41);
/// the rows of many connections closing at once, removed in batches (issue 42).
@Suite(.timeLimit(.minutes(2)))
struct ClusterPresenceTests {
    @Test func aLoginWrittenTwiceForOneConnectionLeavesOneRowAndItsFirstSequence() async throws {
        try await TestCluster.with(1) { cluster in
            let store = try await PostgresServerStore.open(url: cluster.storeURL, nodeName: "retrying")
            let nodes = PostgresCluster(store: store, conninfo: cluster.storeURL)
            let login = DeviceRegistration(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile)
            let first = try await nodes.joined([(login, 7)], now: 1)
            // The same transaction again, as after a COMMIT whose answer was lost.
            let again = try await nodes.joined([(login, 7)], now: 2)
            #expect(again == first, "the retry took a new sequence: the login would count as newer than itself")
            let rows = try await store.pool.run { connection in
                try connection.execute("SELECT count(*) FROM presence WHERE node = 'retrying' AND connection = 7").rows.first?[0].int64
            }
            #expect(rows == 1, "a second row stays online after the connection's close removes the one it knows")
            try await nodes.left(sequences: [first[0]])
            #expect(try await nodes.isPresent(sequence: first[0]) == false)
            await store.close()
        }
    }

    /// Connections closing together leave their rows in batches, the next gathering while one
    /// runs: every departed row goes, and only those.
    @Test func connectionsClosingTogetherLeaveTheirRowsAndOnlyTheirs() async throws {
        try await TestCluster.with(1) { cluster in
            var clients: [MQTTTestClient] = []
            for index in 0..<24 { clients.append(try await cluster.nodes[0].loggedIn("user\(index)", device: "phone")) }
            let connection = try PostgresConnection.connect(cluster.storeURL)
            defer { connection.close() }
            func online() throws -> [String] {
                try connection.execute("SELECT user_id FROM presence ORDER BY user_id").rows.compactMap { $0[0].string }
            }
            #expect(try online().count == 24)
            for client in clients[..<18] { client.close() }
            let staying = (18..<24).map { "user\($0)" }.sorted()
            let deadline = ContinuousClock.now + .seconds(10)
            while try online() != staying, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try online() == staying)
            for client in clients[18...] { client.close() }
            while try !online().isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try online().isEmpty)
        }
    }
}
