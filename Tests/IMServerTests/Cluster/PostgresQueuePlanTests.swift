import IMPostgres
@testable import IMServer
import Testing
import TestSupport

/// PostgreSQL's plans for the queue once it has churned: every delivered message is queued
/// and its entry deleted, so between vacuums the table and its indexes hold pages for far
/// more entries than are live. Its statistics then make an index probe look dearer than one
/// read of the whole table, and a generic plan kept that read for every acknowledgement: 11
/// ms each after a saturated run, a p99 of 500 ms at 1,000 messages/s (issue 42). The
/// PostgreSQL counterpart of `ServerStoreQueryPlanTests`: there an empty table proves nothing.
@Suite(.timeLimit(.minutes(1)))
struct PostgresQueuePlanTests {
    @Test func readingAndAcknowledgingAChurnedQueueReadNoWholeTable() async throws {
        let directory = TemporaryDirectory()
        let postgres = try StockPostgres(directory: directory.path)
        defer { postgres.stop() }
        let url = try postgres.createDatabase("imserver")
        await (try await PostgresServerStore.open(url: url, nodeName: "a")).close()
        let connection = try PostgresConnection.connect(url)
        defer { connection.close() }
        _ = try connection.execute(PostgresServerStore.sessionSettings)
        // 20,000 messages queued for 40 devices and delivered, but for the last ten; then
        // statistics of that state, as autoanalyze takes them.
        try connection.executeScript("""
            INSERT INTO device(app_key, user_id, device_id, platform, registered_at)
                SELECT 'k', 'u' || i, 'd', 'ios', 0 FROM generate_series(1, 40) i;
            INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at)
                SELECT 'k', 'uid' || i, 'u' || (i % 40 + 1), 'u' || ((i + 1) % 40 + 1), 'c' || i, 'hello', 0
                FROM generate_series(1, 20000) i;
            INSERT INTO queue(device, message) SELECT d.id, m.id FROM message m JOIN device d ON d.user_id = m.recipients;
            DELETE FROM queue WHERE message <= (SELECT max(id) - 10 FROM message);
            ANALYZE queue;
            """)
        let live = try connection.execute("""
            SELECT d.user_id, q.message FROM queue q JOIN device d ON d.id = q.device ORDER BY q.message LIMIT 7
            """).rows.map { (user: $0[0].string ?? "", message: $0[1].int64 ?? 0) }
        #expect(live.count == 7)
        let scans = { () throws -> Int64 in
            _ = try connection.execute("SELECT pg_stat_force_next_flush()")
            _ = try connection.execute("SELECT pg_stat_clear_snapshot()")
            return try connection.execute("SELECT seq_scan FROM pg_stat_user_tables WHERE relname = 'queue'").rows.first?[0].int64 ?? -1
        }
        let before = try scans()
        let reads = live.prefix(2).map { QueueReadRequest(device: DeviceKey(appKey: "k", userID: $0.user, deviceID: "d"), after: 0, limit: 100) }
        let read = try PostgresServerStore.pending(reads, on: connection)
        #expect(read.map(\.count).reduce(0, +) >= 2)
        #expect(try scans() == before, "a read of two devices' queues read the whole queue")
        // Several entries (one statement for them all), then a lone one (a statement of its own).
        let lists = Dictionary(grouping: live.prefix(6), by: \.user).map { user, entries in
            (device: DeviceKey(appKey: "k", userID: user, deviceID: "d"), messageIDs: entries.map(\.message))
        }
        let removed = try PostgresServerStore.acknowledge(lists, on: connection)
        #expect(removed.reduce(0, +) == 6)
        #expect(try scans() == before, "an acknowledgement of several entries read the whole queue")
        let last = live[6]
        let lone = try PostgresServerStore.acknowledge([(DeviceKey(appKey: "k", userID: last.user, deviceID: "d"), [last.message])], on: connection)
        #expect(lone == [1])
        #expect(try scans() == before, "an acknowledgement of one entry read the whole queue")
        #expect(try connection.execute("SELECT count(*) FROM queue").rows.first?[0].int64 == 3)
    }
}
