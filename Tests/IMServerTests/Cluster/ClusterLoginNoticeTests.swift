import IMPostgres
import IMProtocol
import MQTT
import Testing
import TestSupport

/// A login's notice that reaches a node while that node's login of another device of the same
/// platform is still writing its presence row (one of the races issue 41 names: it was skipped,
/// and both mobile devices of the user stayed online, each on its node). The rows' sequences
/// decide: the newer login wins.
@Suite(.timeLimit(.minutes(2)))
struct ClusterLoginNoticeTests {
    @Test func aNewerLoginElsewhereNoticedWhileThisLoginsRowIsWrittenDisconnectsIt() async throws {
        try await TestCluster.with(2) { cluster in
            let (one, two) = (cluster.nodes[0], cluster.nodes[1])
            let database = try PostgresConnection.connect(cluster.storeURL)
            defer { database.close() }
            // phone-1's row takes its sequence, then its transaction waits 2 s before it commits:
            // phone-2's login, on the other node, comes after it and commits first.
            try database.executeScript("""
                CREATE FUNCTION imsh_test_slow_login() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.device_id = 'phone-1' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$;
                CREATE TRIGGER imsh_test_slow_login AFTER INSERT ON presence
                    FOR EACH ROW EXECUTE FUNCTION imsh_test_slow_login();
                """)
            let first = try await MQTTTestClient.open(port: one.port)
            let token = try await one.token("alice")
            let firstLogin = Task { try await first.login(appKey: TestServer.appKey, token: token, device: "phone-1") }
            var sleeping = false
            let deadline = ContinuousClock.now + .seconds(5)
            while !sleeping && ContinuousClock.now < deadline {
                let rows = try database.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query LIKE '%INSERT INTO presence%'").rows
                sleeping = (rows.first?[0].int64 ?? 0) > 0
                if !sleeping { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(sleeping, "phone-1's presence row was never written")
            let second = try await two.loggedIn("alice", device: "phone-2")
            let connack = try await firstLogin.value
            #expect(connack?.reasonCode == .success)
            // phone-1's row is the older: phone-2's notice, which came while it was written, displaces it.
            guard case .disconnect(let kicked)? = await first.next(within: .seconds(5)) else {
                Issue.record("phone-1 stayed online beside phone-2")
                return
            }
            #expect(kicked.reasonCode == .sessionTakenOver)
            #expect(kicked.properties.userProperty(IMUserProperty.error) == "other-device-login")
            try await second.send(.pingreq)
            #expect(await second.next() == .pingresp)
        }
    }
}
