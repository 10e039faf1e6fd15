import IMPostgres
import Testing
import TestSupport
@testable import IMServer

/// A login's presence row when its transaction runs again: the pool retries a write whose
/// connection was lost, and a loss during COMMIT may follow a commit that happened (issue 41).
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
            try await nodes.left(sequence: first[0])
            #expect(try await nodes.isPresent(sequence: first[0]) == false)
            await store.close()
        }
    }
}
