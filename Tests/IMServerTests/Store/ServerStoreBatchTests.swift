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
}
