import IMServer
import Testing
import TestSupport

struct ServerStoreBatchTests {
    @Test func aBatchIsStoredInOrderWithDuplicatesInsideIt() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        let earlier = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c0", text: "zero", sentAt: 5)
        var batch = (1...200).map { index in
            NewMessage(appKey: "app", from: "alice", to: ["bob", "carol"], cid: "c\(index)", text: "m\(index)", sentAt: Int64(10 + index))
        }
        batch.append(NewMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c7", text: "again", sentAt: 999))
        batch.append(NewMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c0", text: "zero", sentAt: 999))

        let results = try await store.storeMessages(batch)
        #expect(results.count == 202)
        #expect(results.prefix(200).allSatisfy { !$0.isDuplicate && $0.deliveries.map(\.unchained) == [Delivery(userID: "bob", deviceID: "phone")] })
        // The chain, where the store keeps one: no message claims less than the one queued
        // before it (which would let a connection skip that one); it may claim more (a read).
        if results[0].deliveries.first?.previous != nil {
            let ids = [earlier.messageID] + results.prefix(200).map(\.messageID)
            #expect(zip(results.prefix(200), ids).allSatisfy { ($0.deliveries.first?.previous ?? 0) >= $1 })
        }
        #expect(Set(results.prefix(200).map(\.uid)).count == 200)
        #expect(results.prefix(200).map(\.messageID) == results.prefix(200).map(\.messageID).sorted())
        #expect(results[200] == StoredMessageResult(uid: results[6].uid, messageID: results[6].messageID, sentAt: 17, isDuplicate: true, deliveries: []))
        #expect(results[201].isDuplicate && results[201].uid == earlier.uid)

        let pending = try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 1_000)
        #expect(pending.map(\.uid) == [earlier.uid] + results.prefix(200).map(\.uid))
        try await store.registerDevice(appKey: "app", userID: "carol", deviceID: "web", platform: .web, now: 2)
        #expect(try await store.pendingCount(appKey: "app", userID: "carol", deviceID: "web") == 200)
        #expect(try await store.storeMessages([]).isEmpty)
        await store.close()
    }

    /// A batch larger than a light load's (where PostgreSQL stores the senders within their
    /// quota in one statement): each sender is counted once, a resend gives its count back,
    /// a sender whose batch does not fit is taken message by message, and a recipient with no
    /// device gets a placeholder's queue.
    @Test func aLargeBatchUnderAQuotaCountsEachSenderOnce() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "laptop", platform: .pc, now: 1)
        let quota = QueueQuota(messages: 5, bytes: 1_000)
        func message(_ from: String, _ cid: String, to: [String] = ["bob"]) -> NewMessage {
            NewMessage(appKey: "app", from: from, to: to, cid: cid, text: "text of \(cid)", sentAt: 7)
        }
        _ = try await store.storeMessages((1...4).map { message("dave", "d\($0)") }, quota: quota)
        let first = try await store.storeMessages([message("alice", "a0")], quota: quota)[0]
        let batch = (1...3).map { message("alice", "a\($0)") } + [message("alice", "a0")]
            + (1...3).map { message("dave", "e\($0)") } + (1...4).map { message("carol", "c\($0)", to: ["bob", "erin"]) }
        let results = try await store.storeMessages(batch, quota: quota)

        #expect(results.count == 11)
        let stored = results.filter { !$0.isDuplicate && $0.overQuota == nil }
        #expect(stored.map(\.uid).count == 8)
        #expect(stored.allSatisfy { result in
            result.deliveries.map(\.userID) == ["bob", "bob"] && result.deliveries.map(\.deviceID).sorted() == ["laptop", "phone"]
        })
        #expect(results[3].isDuplicate && results[3].uid == first.uid && results[3].messageID == first.messageID)
        #expect(results[4].overQuota == nil && results[5].overQuota != nil && results[6].overQuota != nil)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice").messages == 4)
        #expect(try await store.queuedUsage(appKey: "app", userID: "dave").messages == 5)
        #expect(try await store.queuedUsage(appKey: "app", userID: "carol").messages == 4)
        #expect(try await store.queuedUsage(appKey: "app", userID: "carol").bytes == "text of c1".utf8.count * 4)
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "laptop", limit: 100).count == 13)
        try await store.registerDevice(appKey: "app", userID: "erin", deviceID: "web", platform: .web, now: 2)
        #expect(try await store.pending(appKey: "app", userID: "erin", deviceID: "web", limit: 100).map(\.uid)
            == results.suffix(4).map(\.uid))
        await store.close()
    }
}
