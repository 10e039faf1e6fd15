import IMServer
import Testing
import TestSupport

struct ServerStoreRetentionTests {
    @Test func purgeRemovesOldMessagesAndTheirQueueEntriesOfThatAppOnly() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        for app in ["app", "other"] {
            for device in ["phone", "laptop"] {
                try await store.registerDevice(appKey: app, userID: "bob", deviceID: device, platform: .mobile, now: 1)
            }
        }
        let old = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "old", text: "o", sentAt: 1_000)
        let fresh = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "new", text: "n", sentAt: 5_000)
        _ = try await store.storeMessage(appKey: "other", from: "alice", to: ["bob"], cid: "old", text: "o", sentAt: 1_000)
        try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: old.messageID)

        let purged = try await store.purgeExpired(appKey: "app", before: 2_000)
        #expect(purged == PurgeResult(messages: 1, queueEntries: 1))
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "laptop", limit: 10).map(\.uid) == [fresh.uid])
        #expect(try await store.pendingCount(appKey: "other", userID: "bob", deviceID: "laptop") == 1)
        #expect(try await store.purgeExpired(appKey: "app", before: 2_000) == PurgeResult())

        // A purged cid may be used again: the message is gone, not remembered.
        let again = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "old", text: "o", sentAt: 6_000)
        #expect(!again.isDuplicate)
        #expect(again.messageID > fresh.messageID)
        await store.close()
    }

    /// The SQLite store's ids follow time (`SQL.idsPerMillisecond`), and its purge finds
    /// expired messages by id: one stored after a clock was set back gets an id past its time
    /// and is kept until that time expires too; none is purged before its own time.
    /// (PostgreSQL's ids come from a sequence and its purge reads an index by time.)
    @Test func idsFollowTimeAndNeverGoBackEvenWhenTheClockDoes() async throws {
        let directory = TemporaryDirectory()
        let store = try await SQLiteServerStore.open(directory: directory.path)
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        let early = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "early", text: "e", sentAt: 10_000)
        let later = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "later", text: "l", sentAt: 20_000)
        let setBack = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "back", text: "b", sentAt: 1_000)
        #expect(early.messageID < later.messageID && later.messageID < setBack.messageID)
        #expect(later.messageID - early.messageID == 10_000 * 1024)

        #expect(try await store.purgeExpired(appKey: "app", before: 10_000) == PurgeResult())
        #expect(try await store.purgeExpired(appKey: "app", before: 15_000) == PurgeResult(messages: 1, queueEntries: 1))
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10).map(\.uid) == [later.uid, setBack.uid])
        #expect(try await store.purgeExpired(appKey: "app", before: 20_001) == PurgeResult(messages: 2, queueEntries: 2))
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 0, bytes: 0))
        // Everything purged: the next id still comes after every one handed out.
        let next = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "next", text: "n", sentAt: 1_000)
        #expect(next.messageID > setBack.messageID)
        await store.close()
    }

    /// A batch stored in one transaction computes all but its first id itself
    /// (`SQL.insertNextMessage`): the ids must be those the file would have given one by one.
    @Test func aBatchGetsTheIdsOneByOneWouldHave() async throws {
        let times: [(cid: String, sentAt: Int64)] = [("a", 10_000), ("b", 20_000), ("back", 1_000), ("a", 30_000), ("c", 20_000)]
        func messages() -> [NewMessage] {
            times.map { NewMessage(appKey: "app", from: "alice", to: ["bob", "bob"], cid: $0.cid, text: "t", sentAt: $0.sentAt) }
        }
        let batchDirectory = TemporaryDirectory(), singleDirectory = TemporaryDirectory()
        let batchStore = try await SQLiteServerStore.open(directory: batchDirectory.path)
        let singleStore = try await SQLiteServerStore.open(directory: singleDirectory.path)
        let batch = try await batchStore.storeMessages(messages())
        var single: [StoredMessageResult] = []
        for message in messages() { single += try await singleStore.storeMessages([message]) }
        #expect(batch.map(\.messageID) == single.map(\.messageID))
        #expect(batch.map(\.isDuplicate) == [false, false, false, true, false])
        #expect(batch[1].messageID - batch[0].messageID == 10_000 * 1024)
        #expect(batch[2].messageID == batch[1].messageID + 1 && batch[4].messageID == batch[2].messageID + 1)
        #expect(batch[3].messageID == batch[0].messageID)
        // Bob twice among the recipients: queued once.
        #expect(try await batchStore.pendingCount(appKey: "app", userID: "bob", deviceID: "") == 4, "the placeholder device's queue")
        await batchStore.close()
        await singleStore.close()
    }

    @Test func purgeByEachAppsRetention() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        let apps = [
            AppSettings(appKey: "short", appSecret: "s", offlineRetention: .seconds(10)),
            AppSettings(appKey: "long", appSecret: "s", offlineRetention: .seconds(100)),
        ]
        for app in apps {
            _ = try await store.storeMessage(appKey: app.appKey, from: "alice", to: ["bob"], cid: "c", text: "t", sentAt: 50_000)
        }
        // At 70 s, the short app's message (stored at 50 s, kept 10 s) is expired; the long app's is not.
        let purged = try await store.purgeExpired(apps: apps, now: 70_000)
        #expect(purged == PurgeResult(messages: 1, queueEntries: 1))
        try await store.registerDevice(appKey: "long", userID: "bob", deviceID: "d", platform: .pc, now: 71_000)
        try await store.registerDevice(appKey: "short", userID: "bob", deviceID: "d", platform: .pc, now: 71_000)
        #expect(try await store.pendingCount(appKey: "long", userID: "bob", deviceID: "d") == 1)
        #expect(try await store.pendingCount(appKey: "short", userID: "bob", deviceID: "d") == 0)
        await store.close()
    }
}
