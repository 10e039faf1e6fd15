@testable import IMServer
import IMStore
import TestSupport
import Testing

/// Every hot-path statement must find its rows through an index: a full scan would grow with
/// the number of stored messages and sink the message rate.
struct ServerStoreQueryPlanTests {
    @Test(arguments: SQLiteServerStore.SQL.hotPaths.map(\.name))
    func usesAnIndex(name: String) async throws {
        let directory = TemporaryDirectory()
        // SQLite's plans: PostgreSQL plans by table statistics, so an empty table proves nothing there.
        let store = try await SQLiteServerStore.open(directory: directory.path)
        let sql = try #require(SQLiteServerStore.SQL.hotPaths.first { $0.name == name }?.sql)
        let plan = try await store.queue.read { db in
            let parameters = [DatabaseValue](repeating: .null, count: try db.prepare(sql).parameterCount)
            return try db.fetchAll("EXPLAIN QUERY PLAN " + sql, parameters).compactMap { $0[3].string }
        }
        let scans = plan.filter { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }
        #expect(scans.isEmpty, "\(name): \(plan)")
        await store.close()
    }
}
