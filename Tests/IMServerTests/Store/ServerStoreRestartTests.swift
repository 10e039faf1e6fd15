import IMServer
import Testing
import TestSupport

/// Closing and reopening the store stands in for a server restart.
struct ServerStoreRestartTests {
    @Test func queuesDevicesAndDuplicatesSurviveReopening() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        let delivered = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 10)
        let waiting = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob", "carol"], cid: "c2", text: "two", sentAt: 20)
        try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: delivered.messageID)
        await store.close()

        let reopened = try await directory.open()
        #expect(try await !reopened.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 2))
        let pending = try await reopened.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10)
        #expect(pending == [QueuedMessage(messageID: waiting.messageID, uid: waiting.uid, from: "alice", to: ["bob", "carol"],
                                          text: "two", cid: "c2", sentAt: 20)])
        // carol had no device: her placeholder queue is still there for her first one.
        try await reopened.registerDevice(appKey: "app", userID: "carol", deviceID: "tab", platform: .pc, now: 3)
        #expect(try await reopened.pending(appKey: "app", userID: "carol", deviceID: "tab", limit: 10).map(\.uid) == [waiting.uid])
        let resent = try await reopened.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 30)
        #expect(resent.isDuplicate && resent.uid == delivered.uid)
        // Ids keep growing after a restart.
        let next = try await reopened.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c3", text: "three", sentAt: 40)
        #expect(next.messageID > waiting.messageID)
        await reopened.close()
    }

    @Test func openingAFileThatIsNotADatabaseNamesIt() async throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("server.sqlite", String(repeating: "not a database ", count: 100))
        do {
            _ = try await SQLiteServerStore.open(directory: directory.path)
            Issue.record("opened a file that is not a database")
        } catch {
            guard case .cannotOpen(let reported, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reported == path)
            #expect(error.description.hasPrefix("cannot open server database at \(path): "))
            #expect(reason.contains("move it and its -wal aside"))
        }
    }
}
