import IMConfig
import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// The per-user storage quota: a sender whose undelivered messages reach the app's limit gets
/// PUBACK 0x97 with `im-error` `quota-exceeded`; other senders are unaffected, and deliveries
/// free room.
@Suite(.timeLimit(.minutes(1)))
struct QueueQuotaTests {
    /// Sends `text` and returns the whole PUBACK.
    func send(_ client: MQTTTestClient, _ text: String, to user: String, cid: String, packetID: UInt16) async throws -> PubAck? {
        try await client.send(.publish(Publish(
            topic: IMTopic.send(to: user).name, payload: TextMessage(text: text, cid: cid).encoded(),
            qos: .atLeastOnce, packetIdentifier: packetID)))
        guard case .puback(let puback)? = await client.next() else { return nil }
        return puback
    }

    @Test func aSenderPastItsQuotaGets0x97WhileOthersStillSend() async throws {
        let directory = TemporaryDirectory()
        var app = TestServer.app()
        app.queueQuota = QueueQuota(messages: 3, bytes: 1000)
        let server = try await TestServer.start(directory: directory, apps: [app])
        try await server.loggedIn("bob", device: "phone-b").close()
        let alice = try await server.loggedIn("alice", device: "phone-a")
        for number in 1...3 {
            #expect(try await send(alice, "m\(number)", to: "bob", cid: "a\(number)", packetID: UInt16(number))?.reasonCode == .success)
        }
        let refused = try #require(try await send(alice, "m4", to: "bob", cid: "a4", packetID: 4))
        #expect(refused.reasonCode == .quotaExceeded)
        #expect(refused.properties.userProperty(IMUserProperty.error) == "quota-exceeded")
        #expect(refused.properties.reasonString?.contains("3 messages (6 bytes) you sent are waiting") == true)
        // A resend of a stored message is acknowledged as before; another sender is not limited.
        #expect(try await send(alice, "m3", to: "bob", cid: "a3", packetID: 5)?.reasonCode == .success)
        let carol = try await server.loggedIn("carol", device: "phone-c")
        #expect(try await send(carol, "from carol", to: "bob", cid: "c1", packetID: 1)?.reasonCode == .success)

        // Bob reads and acknowledges: alice's messages are delivered, and she has room again.
        let bob = try await server.loggedIn("bob", device: "phone-b")
        for _ in 0..<4 {
            guard case .publish(let publish)? = await bob.next() else { Issue.record("a delivery missing"); break }
            try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await send(alice, "m4", to: "bob", cid: "a4", packetID: 6)?.reasonCode == .success)
        await server.stop()
    }

    /// A sender with nothing queued yet whose one message is over the byte limit alone is
    /// refused too, and not counted: the store checks before it writes the sender's first row.
    @Test func theByteLimitCountsTextBytes() async throws {
        let directory = TemporaryDirectory()
        var app = TestServer.app()
        app.queueQuota = QueueQuota(messages: 100, bytes: 1000)
        let server = try await TestServer.start(directory: directory, apps: [app])
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let text = String(repeating: "é", count: 300)
        #expect(try await send(alice, text, to: "bob", cid: "b1", packetID: 1)?.reasonCode == .success)
        #expect(try await send(alice, text, to: "bob", cid: "b2", packetID: 2)?.reasonCode == .quotaExceeded)
        #expect(try await send(alice, "short", to: "bob", cid: "b3", packetID: 3)?.reasonCode == .success)
        let dave = try await server.loggedIn("dave", device: "phone-d")
        #expect(try await send(dave, String(repeating: "x", count: 1001), to: "bob", cid: "d1", packetID: 1)?.reasonCode == .quotaExceeded)
        #expect(try await send(dave, String(repeating: "y", count: 1000), to: "bob", cid: "d2", packetID: 2)?.reasonCode == .success)
        await server.stop()
    }

    @Test func theUsageFollowsStoresAcknowledgementsAndPurges() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "laptop", platform: .pc, now: 1)
        let first = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "1", text: "abc", sentAt: 1_000)
        _ = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob", "carol"], cid: "2", text: "de", sentAt: 5_000)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 2, bytes: 5))
        try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageID: first.messageID)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 2, bytes: 5))
        try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "laptop", messageID: first.messageID)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 1, bytes: 2))
        try await store.purgeExpired(appKey: "app", before: 6_000)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage())
        await store.close()
    }

    /// A batch counts each sender's messages as they are stored (the quota refuses the third
    /// of two allowed within the batch), a resend is a duplicate whether or not its sender is at
    /// the quota and counts nothing, and one acknowledgement of several messages releases each
    /// sender's share.
    @Test func aBatchCountsAndReleasesEachSendersShare() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 1)
        func message(_ from: String, _ cid: String, _ text: String) -> NewMessage {
            NewMessage(appKey: "app", from: from, to: ["bob"], cid: cid, text: text, sentAt: 1_000)
        }
        let results = try await store.storeMessages([
            message("alice", "a1", "abc"), message("carol", "c1", "de"), message("alice", "a2", "f"),
            message("alice", "a3", "gh"), message("carol", "c1", "de"), message("alice", "a1", "abc"),
        ], quota: QueueQuota(messages: 2, bytes: 100))
        #expect(results.map { $0.overQuota == nil } == [true, true, true, false, true, true])
        #expect(results.map(\.isDuplicate) == [false, false, false, false, true, true])
        #expect(results[5].messageID == results[0].messageID)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 2, bytes: 4))
        #expect(try await store.queuedUsage(appKey: "app", userID: "carol") == QueueUsage(messages: 1, bytes: 2))
        let acknowledged = [results[0], results[1]].map(\.messageID) + [999]
        #expect(try await store.acknowledge(appKey: "app", userID: "bob", deviceID: "phone", messageIDs: acknowledged) == 2)
        #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 1, bytes: 1))
        #expect(try await store.queuedUsage(appKey: "app", userID: "carol") == QueueUsage())
        await store.close()
    }

    @Test func theQuotaIsSetPerAppInTheConfigurationFile() {
        let diagnostics = ConfigDiagnostics(file: "server.json")
        let text = #"{"apps": [{"appKey": "a", "appSecret": "s", "maxQueuedMessages": 5, "maxQueuedBytes": 2048}, {"appKey": "b", "appSecret": "s"}]}"#
        let apps = ServerConfiguration.parse(Array(text.utf8), diagnostics: diagnostics)?.apps
        #expect(apps?.map(\.queueQuota) == [QueueQuota(messages: 5, bytes: 2048), QueueQuota(messages: 10_000, bytes: 64 << 20)])
    }
}
