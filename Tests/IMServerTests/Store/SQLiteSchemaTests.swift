import Glibc
import IMStore
import Testing
import TestSupport
@testable import IMServer

/// Migrations of the SQLite store's schema on files written by earlier versions.
struct SQLiteSchemaTests {
    /// A file as version 3 wrote it, holding one message (returned).
    private func versionThreeFile(in directory: TemporaryDirectory) async throws -> StoredMessageResult {
        let store = try await SQLiteServerStore.open(directory: directory.path)
        let stored = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "kept", sentAt: 5)
        await store.close()
        let old = try Database(path: directory.file(SQLiteServerStore.fileName))
        try old.executeScript("""
            CREATE UNIQUE INDEX message_uid ON message(uid); DROP TABLE message_id_floor; PRAGMA user_version = 3
            """)
        old.close()
        return stored
    }

    @Test func aVersion3FileLosesTheUidIndexAndKeepsItsMessages() async throws {
        let directory = TemporaryDirectory(prefix: "imsh-schema")
        let stored = try await versionThreeFile(in: directory)
        // imserver says what opening will upgrade before it does (nothing when there is no file).
        #expect(await SchemaUpgrade.pending(directory: directory.path) == SchemaUpgrade(
            path: SQLiteServerStore.path(in: directory.path), from: 3, to: 5, messages: 1))
        #expect(await SchemaUpgrade.pending(directory: TemporaryDirectory(prefix: "imsh-schema").path) == nil)

        let reopened = try await SQLiteServerStore.open(directory: directory.path)
        #expect(await SchemaUpgrade.pending(directory: directory.path) == nil, "up to date")
        let check = try Database(path: directory.file(SQLiteServerStore.fileName))
        #expect(try check.userVersion() == 5)
        #expect(try check.fetchOne("SELECT count(*) FROM sqlite_master WHERE name = 'message_uid'")?[0].int64 == 0)
        check.close()
        let pending = try await reopened.pending(appKey: "app", userID: "bob", deviceID: "", after: 0, limit: 10)
        #expect(pending.map(\.uid) == [stored.uid])
        await reopened.close()
    }

    /// imserver says it upgrades the file before it listens: the wait is the copy's, not a hang.
    @Test func imserverAnnouncesTheUpgradeBeforeItListens() async throws {
        let directory = TemporaryDirectory(prefix: "imsh-schema")
        _ = try await versionThreeFile(in: directory)
        let server = try await ImserverProcess.start(dataDirectory: directory.path)
        let path = directory.file(SQLiteServerStore.fileName)
        #expect(server.earlier == [#"{"event":"upgrading","file":"\#(path)","from":3,"to":5,"messages":1}"#])
        _ = try await server.stop(SIGTERM)
        let again = try await ImserverProcess.start(dataDirectory: directory.path)
        #expect(again.earlier.isEmpty, "\(again.earlier)")
        _ = try await again.stop(SIGTERM)
    }

    @Test func aVersion4FileKeepsItsMessagesAndIdsAndLosesAutoincrementAndTheAgeIndex() async throws {
        let directory = TemporaryDirectory(prefix: "imsh-schema")
        var store: SQLiteServerStore? = try await SQLiteServerStore.open(directory: directory.path)
        try await store!.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        let first = try await store!.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 5)
        let second = try await store!.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c2", text: "two", sentAt: 6)
        await store!.close()
        store = nil
        // Back to what version 4 wrote: the same rows in an AUTOINCREMENT table, indexed by age.
        let old = try Database(path: directory.file(SQLiteServerStore.fileName))
        try old.executeScript("""
            CREATE TABLE message_v4(id INTEGER PRIMARY KEY AUTOINCREMENT, app_key TEXT NOT NULL, uid TEXT NOT NULL,
                sender TEXT NOT NULL, recipients TEXT NOT NULL, cid TEXT NOT NULL, text TEXT NOT NULL, sent_at INTEGER NOT NULL);
            INSERT INTO message_v4 SELECT * FROM message;
            DROP TABLE message;
            ALTER TABLE message_v4 RENAME TO message;
            CREATE UNIQUE INDEX message_cid ON message(app_key, sender, cid);
            CREATE INDEX message_age ON message(app_key, sent_at);
            DROP TABLE message_id_floor;
            PRAGMA user_version = 4;
            """)
        #expect(try old.fetchOne("SELECT count(*) FROM sqlite_sequence WHERE name = 'message'")?[0].int64 == 1)
        // Messages with higher ids were handed out and are gone (delivered, purged): their ids
        // stay used.
        let handedOut: Int64 = 1 << 40
        try old.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'message'", [.integer(handedOut)])
        old.close()

        let reopened = try await SQLiteServerStore.open(directory: directory.path)
        let check = try Database(path: directory.file(SQLiteServerStore.fileName))
        #expect(try check.userVersion() == 5)
        let schema = try check.fetchAll("SELECT name, coalesce(sql, '') FROM sqlite_master WHERE tbl_name = 'message'")
        #expect(Set(schema.compactMap { $0[0].string }) == ["message", "message_cid"])
        #expect(schema.allSatisfy { !($0[1].string ?? "").contains("AUTOINCREMENT") })
        #expect(try check.fetchOne("SELECT count(*) FROM sqlite_sequence WHERE name = 'message'")?[0].int64 == 0)
        #expect(try check.fetchOne("SELECT id FROM message_id_floor")?[0].int64 == handedOut)
        check.close()
        let pending = try await reopened.pending(appKey: "app", userID: "bob", deviceID: "phone", after: 0, limit: 10)
        #expect(pending.map(\.messageID) == [first.messageID, second.messageID])
        #expect(pending.map(\.text) == ["one", "two"])
        let third = try await reopened.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c3", text: "three", sentAt: 7)
        #expect(third.messageID > handedOut, "\(third.messageID): an id AUTOINCREMENT handed out may come again")
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
