import Foundation
import TestSupport
@testable import IMEngine
import IMStore
import Testing

struct SessionDatabaseTests {
    @Test func incomingMessagesAreStoredOncePerUid() async throws {
        let directory = TemporaryDirectory()
        let (database, isRecreated) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        #expect(!isRecreated)
        #expect(try await database.storeIncoming(uid: "m1", from: "bob", text: "hi", cid: "c1", sentAt: 1000))
        #expect(try await !database.storeIncoming(uid: "m1", from: "bob", text: "hi", cid: "c1", sentAt: 1000))
        #expect(try await database.storeIncoming(uid: "m2", from: "carol", text: "yo", cid: nil, sentAt: 2000))
        #expect(try await database.count(uid: "m1") == 1)
        let bob = try await database.history(peer: "bob")
        #expect(bob.map(\.text) == ["hi"] && bob[0].direction == .incoming && bob[0].state == .received)
        #expect(try await database.history().map(\.uid) == ["m1", "m2"])
        await database.close()
    }

    @Test func outgoingMessagesStayPendingUntilAcknowledged() async throws {
        let directory = TemporaryDirectory()
        let (database, _) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        _ = try await database.enqueueOutgoing(cid: "c1", to: "bob", text: "one", at: 1)
        _ = try await database.enqueueOutgoing(cid: "c2", to: "bob", text: "two", at: 2)
        #expect(try await database.pendingOutgoing().map(\.cid) == ["c1", "c2"])
        database.markAcknowledged(sent: ["c1"], failed: [])
        #expect(try await database.pendingOutgoing().map(\.cid) == ["c2"])
        let history = try await database.history(peer: "bob", limit: 1)
        #expect(history.map(\.text) == ["two"] && history[0].state == .pending)
        await database.close()

        // Pending sends survive a restart of the process.
        let (reopened, _) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        #expect(try await reopened.pendingOutgoing().map(\.cid) == ["c2"])
        await reopened.close()
    }

    @Test func connectionLogKeepsEveryStatusWithTimeAndCode() async throws {
        let directory = TemporaryDirectory()
        let (database, _) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        let entries = [
            ConnectionLogEntry(at: 1, status: .connecting, code: nil, detail: ""),
            ConnectionLogEntry(at: 2, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient, detail: "other-device-login"),
        ]
        for entry in entries { try await database.appendLog(entry) }
        #expect(try await database.connectionLog() == entries)
        #expect(try await database.connectionLog(limit: 1) == [entries[1]])
        await database.close()
    }

    @Test func aCorruptFileIsMovedAsideAndRecreated() async throws {
        let directory = TemporaryDirectory()
        let path = SessionDatabase.path(directory: directory.path, appKey: "dev", userID: "alice")
        let (first, _) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        await first.close()
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))

        let (database, isRecreated) = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice")
        #expect(isRecreated)
        #expect(try await database.storeIncoming(uid: "m1", from: "bob", text: "after", cid: nil, sentAt: 1))
        let aside = directory.contents(of: "dev").filter { $0.hasPrefix("alice.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") && !$0.hasSuffix("-journal") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path + "/dev/" + aside[0])) == garbage)
        await database.close()
    }

    @Test(arguments: ["", "a/b", "../x", "名字", String(repeating: "a", count: 65)])
    func invalidUserIDsAreRefusedBeforeAnyFileIsMade(userID: String) async {
        let directory = TemporaryDirectory()
        await #expect(throws: SessionDatabaseError.invalidUserID(userID)) {
            _ = try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: userID)
        }
        #expect(directory.contents(of: "").isEmpty)
    }

    /// A new file gets the current schema in one step; it must be the one the migrations
    /// leave, to the text of each statement SQLite keeps, and an older file still migrates.
    @Test func aNewFileGetsTheSchemaTheMigrationsLeave() throws {
        let directory = TemporaryDirectory()
        let schema = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        let fresh = try Database(path: directory.file("fresh.sqlite"), configuration: .compact)
        let replayed = try Database(path: directory.file("replayed.sqlite"), configuration: .compact)
        #expect(try SessionDatabase.migrator.migrate(fresh) == 2)
        #expect(try SessionDatabase.migrator.historyOnly.migrate(replayed) == 2)
        #expect(try fresh.fetchAll(schema) == replayed.fetchAll(schema))
        #expect(try fresh.fetchAll(schema).count == 5)
        #expect(try fresh.userVersion() == replayed.userVersion())
        // A version-0 file that already has tables is not new: it goes through the history.
        let older = try Database(path: directory.file("older.sqlite"), configuration: .compact)
        try older.executeScript("CREATE TABLE conversation(peer TEXT PRIMARY KEY)")
        #expect(throws: DatabaseError.self) { try SessionDatabase.migrator.migrate(older) }
    }

    @Test func appKeysBecomeSafeDirectoryNames() {
        #expect(SessionDatabase.path(directory: "/d", appKey: "a/../b", userID: "u") == "/d/a%2F..%2Fb/u.sqlite")
        #expect(SessionDatabase.path(directory: "/d", appKey: "..", userID: "u") == "/d/%../u.sqlite")
    }
}
