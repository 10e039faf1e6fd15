import IMStore
import Testing
import TestSupport
@testable import IMServer

/// Migrations of the SQLite store's schema on files written by earlier versions.
struct SQLiteSchemaTests {
    @Test func aVersion3FileLosesTheUidIndexAndKeepsItsMessages() async throws {
        let directory = TemporaryDirectory(prefix: "imsh-schema")
        var store: SQLiteServerStore? = try await SQLiteServerStore.open(directory: directory.path)
        let stored = try await store!.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "kept", sentAt: 5)
        await store!.close()
        store = nil
        // Back to what version 3 wrote.
        let old = try Database(path: directory.file(SQLiteServerStore.fileName))
        try old.executeScript("CREATE UNIQUE INDEX message_uid ON message(uid); PRAGMA user_version = 3")
        old.close()

        let reopened = try await SQLiteServerStore.open(directory: directory.path)
        let check = try Database(path: directory.file(SQLiteServerStore.fileName))
        #expect(try check.userVersion() == 4)
        #expect(try check.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'message_uid'")?[0].int64 == 0)
        check.close()
        let pending = try await reopened.pending(appKey: "app", userID: "bob", deviceID: "", after: 0, limit: 10)
        #expect(pending.map(\.uid) == [stored.uid])
        await reopened.close()
    }

    @Test func aNewFileHasTwoKiBPagesAndAnOlderOneKeepsItsOwn() async throws {
        let fresh = TemporaryDirectory(prefix: "imsh-schema")
        await (try await SQLiteServerStore.open(directory: fresh.path)).close()
        let made = try Database(path: fresh.file(SQLiteServerStore.fileName))
        #expect(try made.fetchOne("PRAGMA page_size")?[0].int64 == 2048)
        made.close()

        let older = TemporaryDirectory(prefix: "imsh-schema")
        var configuration = Database.Configuration()
        configuration.pageSize = 4096
        try Database(path: older.file(SQLiteServerStore.fileName), configuration: configuration).close()
        let store = try await SQLiteServerStore.open(directory: older.path)
        _ = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "hi", sentAt: 5)
        await store.close()
        let kept = try Database(path: older.file(SQLiteServerStore.fileName))
        #expect(try kept.fetchOne("PRAGMA page_size")?[0].int64 == 4096)
        kept.close()
    }
}
