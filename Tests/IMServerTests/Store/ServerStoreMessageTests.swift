import IMEncoding
import IMProtocol
import IMServer
import Testing
import TestSupport

struct ServerStoreMessageTests {
    /// A store with bob's phone registered.
    func storeWithBobsPhone(_ directory: TemporaryDirectory) async throws -> any ServerStore {
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        return store
    }

    @Test func storePendingAcknowledge() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        let stored = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "hi, \"bob\"", sentAt: 1_000)
        #expect(!stored.isDuplicate)
        #expect(stored.sentAt == 1_000)
        #expect(stored.deliveries.map(\.unchained) == [Delivery(userID: "bob", deviceID: "phone")])
        #expect(stored.uid.count == 22)
        #expect(Base64URL.decode(stored.uid)?.count == 16)

        let pending = try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10)
        #expect(pending == [QueuedMessage(messageID: stored.messageID, uid: stored.uid, from: "alice", to: ["bob"],
                                          text: "hi, \"bob\"", cid: "c1", sentAt: 1_000)])
        #expect(try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: stored.messageID))
        #expect(try await !store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: stored.messageID))
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10).isEmpty)
        await store.close()
    }

    /// PostgreSQL's chain (`Delivery.previous`): the newest message still queued for the
    /// device when this one was, 0 once everything before was acknowledged. SQLite has none.
    @Test func theChainNamesTheNewestMessageStillQueued() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        let first = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 1)
        let second = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c2", text: "two", sentAt: 2)
        guard first.deliveries.first?.previous != nil else { return await store.close() }
        #expect(first.deliveries.map(\.previous) == [0])
        #expect(second.deliveries.map(\.previous) == [first.messageID])
        for id in [first.messageID, second.messageID] {
            #expect(try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: id))
        }
        let third = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c3", text: "three", sentAt: 3)
        #expect(third.deliveries.map(\.previous) == [0])
        await store.close()
    }

    @Test func pendingIsInStoreOrderAndPagesWithAfter() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        var uids: [String] = []
        for index in 0..<5 {
            uids.append(try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c\(index)", text: "\(index)", sentAt: 10).uid)
        }
        let firstPage = try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 2)
        #expect(firstPage.map(\.uid) == Array(uids[0..<2]))
        let secondPage = try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", after: firstPage[1].messageID, limit: 10)
        #expect(secondPage.map(\.uid) == Array(uids[2...]))
        #expect(try await store.pendingCount(appKey: "app", userID: "bob", deviceID: "phone") == 5)
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "unknown", limit: 10).isEmpty)
        await store.close()
    }

    @Test func duplicateCIDIsStoredOnce() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        let first = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "same", text: "hello", sentAt: 100)
        let resent = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "same", text: "hello", sentAt: 200)
        #expect(resent == StoredMessageResult(uid: first.uid, messageID: first.messageID, sentAt: 100, isDuplicate: true, deliveries: []))
        // The same cid from another sender, or in another app, is another message.
        let other = try await store.storeMessage(appKey: "app", from: "carol", to: ["bob"], cid: "same", text: "hey", sentAt: 300)
        #expect(!other.isDuplicate && other.uid != first.uid)
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10).map(\.uid) == [first.uid, other.uid])
        await store.close()
    }

    @Test func twoDevicesAreQueuedAndAcknowledgedIndependently() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "laptop", platform: .pc, now: 2)
        let stored = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob", "bob"], cid: "c1", text: "x", sentAt: 5)
        #expect(stored.deliveries.map(\.unchained) == [Delivery(userID: "bob", deviceID: "laptop"), Delivery(userID: "bob", deviceID: "phone")])

        #expect(try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: stored.messageID))
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10).isEmpty)
        let laptop = try await store.pending(appKey: "app", userID: "bob", deviceID: "laptop", limit: 10)
        #expect(laptop.map(\.uid) == [stored.uid])
        #expect(laptop.first?.to == ["bob"])
        // A device cannot acknowledge another user's copy.
        #expect(try await !store.acknowledge(appKey: "app", userID: "alice", deviceID: "laptop", messageID: stored.messageID))
        #expect(try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "laptop", messageIDs: [stored.messageID, 999]) == 1)
        await store.close()
    }

    @Test func severalRecipientsEachGetTheirCopy() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        try await store.registerDevice(appKey: "app", userID: "carol", deviceID: "web1", platform: .web, now: 2)
        let stored = try await store.storeMessage(appKey: "app", from: "alice", to: ["carol", "bob", "dave"], cid: "c", text: "all", sentAt: 5)
        #expect(stored.deliveries.map(\.unchained) == [Delivery(userID: "carol", deviceID: "web1"), Delivery(userID: "bob", deviceID: "phone")])
        for (user, device) in [("carol", "web1"), ("bob", "phone")] {
            let queued = try await store.pending(appKey: "app", userID: user, deviceID: device, limit: 10)
            #expect(queued.map(\.to) == [["carol", "bob", "dave"]])
        }
        try await store.registerDevice(appKey: "app", userID: "dave", deviceID: "d1", platform: .mobile, now: 3)
        #expect(try await store.pending(appKey: "app", userID: "dave", deviceID: "d1", limit: 10).map(\.uid) == [stored.uid])
        await store.close()
    }

    @Test func messagesToABlockedUserAreQueuedLikeAnyOther() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        try await store.block(appKey: "app", userIDs: ["bob"], until: 10_000)
        let stored = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c", text: "later", sentAt: 5)
        #expect(stored.deliveries.map(\.unchained) == [Delivery(userID: "bob", deviceID: "phone")])
        #expect(try await store.pendingCount(appKey: "app", userID: "bob", deviceID: "phone") == 1)
        await store.close()
    }

    @Test func invalidRecipientFailsTheWholeBatchBeforeWriting() async throws {
        let directory = TemporaryDirectory()
        let store = try await storeWithBobsPhone(directory)
        await #expect(throws: ServerStoreError.invalidUserID("no/slash")) {
            try await store.storeMessages([
                NewMessage(appKey: "app", from: "alice", to: ["bob"], cid: "ok", text: "fine", sentAt: 1),
                NewMessage(appKey: "app", from: "alice", to: ["no/slash"], cid: "bad", text: "x", sentAt: 1),
            ])
        }
        #expect(try await store.pendingCount(appKey: "app", userID: "bob", deviceID: "phone") == 0)
        await store.close()
    }
}
