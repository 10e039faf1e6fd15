import IMPostgres
import IMServer
import Testing
import TestSupport

/// The PostgreSQL schema: nodes starting together migrate it once, and a database a newer
/// imserver migrated is refused with the reason.
@Suite(.timeLimit(.minutes(1)))
struct PostgresSchemaTests {
    @Test func nodesStartingTogetherMigrateOnceAndANewerSchemaIsRefused() async throws {
        let directory = TemporaryDirectory()
        let postgres = try await StockPostgres.start(directory: directory.path)
        defer { postgres.stop() }
        let url = try postgres.createDatabase("imserver")
        let stores = try await withThrowingTaskGroup(of: (any ServerStore).self) { group in
            for index in 0..<4 { group.addTask { try await PostgresServerStore.open(url: url, nodeName: "n\(index)") } }
            var opened: [any ServerStore] = []
            for try await store in group { opened.append(store) }
            return opened
        }
        for store in stores { await store.close() }
        let connection = try PostgresConnection.connect(url)
        defer { connection.close() }
        let versions = try connection.execute("SELECT version FROM imserver_schema ORDER BY version").rows.compactMap { $0[0].int64 }
        #expect(versions == Array(1...Int64(versions.count)) && versions.count >= 9)
        // The message table keeps the indexes a query reads, and none on uids (v9).
        let indexes = try connection.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'message' ORDER BY indexname").rows
            .compactMap { $0[0].string }
        #expect(indexes.count == 3, "\(indexes)")
        #expect(!indexes.contains { $0.contains("(uid)") }, "\(indexes)")

        _ = try connection.execute("INSERT INTO imserver_schema(version, name) VALUES (99, 'from the future')")
        await #expect(throws: ServerStoreError.self) { try await PostgresServerStore.open(url: url, nodeName: "late") }
        do {
            _ = try await PostgresServerStore.open(url: url, nodeName: "late")
        } catch {
            #expect("\(error)".contains("newer than this imserver knows"), "\(error)")
            #expect("\(error)".contains("postgres://postgres@127.0.0.1:\(postgres.port)/imserver"), "\(error)")
        }
    }

    @Test func aURLLibpqRefusesIsNamedWithItsReason() async throws {
        do {
            _ = try await PostgresServerStore.open(url: "postgres://u:secret@127.0.0.1:1/db?nonsense=1", nodeName: "n")
            Issue.record("opened")
        } catch {
            #expect("\(error)".contains("nonsense") && !"\(error)".contains("secret"), "\(error)")
        }
    }
}
