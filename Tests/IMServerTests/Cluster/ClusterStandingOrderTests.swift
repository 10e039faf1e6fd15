import IMPostgres
import IMServer
import Testing
import TestSupport

/// A deactivation whose write reaches PostgreSQL after the reactivation that a caller made
/// once it had given up waiting (its node's link to PostgreSQL was black-holed): the chaos run
/// of issue 41 left such a user deactivated for good, refused at every login. The call that
/// came last stands, whatever order the writes land in.
@Suite(.timeLimit(.minutes(2)))
struct ClusterStandingOrderTests {
    @Test func aDeactivationWrittenAfterALaterReactivationChangesNothing() async throws {
        try await TestCluster.with(2) { cluster in
            let (one, two) = (cluster.nodes[0], cluster.nodes[1])
            let database = try PostgresConnection.connect(cluster.storeURL)
            defer { database.close() }
            // The deactivation's write waits 2 s before its row goes in, as one held in a black hole.
            try database.executeScript("""
                CREATE FUNCTION imsh_test_slow_deactivation() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.deactivated THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$;
                CREATE TRIGGER imsh_test_slow_deactivation BEFORE INSERT ON user_state
                    FOR EACH ROW EXECUTE FUNCTION imsh_test_slow_deactivation();
                """)
            let received = one.now()
            let deactivation = Task {
                try await one.backend.deactivate(appKey: TestServer.appKey, userIDs: ["alice"], requestedAt: received)
            }
            var sleeping = false
            let deadline = ContinuousClock.now + .seconds(5)
            while !sleeping && ContinuousClock.now < deadline {
                let rows = try database.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%INSERT INTO user_state%'").rows
                sleeping = (rows.first?[0].int64 ?? 0) > 0
                if !sleeping { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(sleeping, "the deactivation's write never started")
            try await two.backend.reactivate(appKey: TestServer.appKey, userIDs: ["alice"], requestedAt: received + 1)
            try await deactivation.value
            let rows = try database.execute("SELECT deactivated FROM user_state WHERE user_id = 'alice'").rows
            #expect(rows.first?[0].bool == false, "the deactivation written last undid the reactivation made after it")
            let alice = try await one.loggedIn("alice", device: "phone")
            try await alice.send(.pingreq)
            #expect(await alice.next() == .pingresp)
        }
    }

    @Test func blocksAndDeactivationsStandInTheOrderTheyWereReceived() async throws {
        try await TestCluster.with(1) { cluster in
            let store = try await PostgresServerStore.open(url: cluster.storeURL, nodeName: "writer")
            // Received 2, 1, 3, written in that order: the block of 1 comes too late, the unblock of 3 stands.
            try await store.unblock(appKey: "app", userIDs: ["bob"], requestedAt: 2_000)
            try await store.block(appKey: "app", userIDs: ["bob"], until: 9_000_000, requestedAt: 1_000)
            #expect(try await store.userState(appKey: "app", userID: "bob").blockedUntil == nil)
            try await store.block(appKey: "app", userIDs: ["bob"], until: 9_000_000, requestedAt: 3_000)
            #expect(try await store.userState(appKey: "app", userID: "bob").blockedUntil == 9_000_000)
            try await store.reactivate(appKey: "app", userIDs: ["bob"], requestedAt: 2_000)
            try await store.deactivate(appKey: "app", userIDs: ["bob"], requestedAt: 1_000)
            #expect(try await store.userState(appKey: "app", userID: "bob").deactivated == false)
            // A block's order is its own: the late deactivation left it alone, and a tie is carried out.
            try await store.deactivate(appKey: "app", userIDs: ["bob"], requestedAt: 2_000)
            #expect(try await store.userState(appKey: "app", userID: "bob") == UserState(blockedUntil: 9_000_000, deactivated: true))
            await store.close()
        }
    }
}
