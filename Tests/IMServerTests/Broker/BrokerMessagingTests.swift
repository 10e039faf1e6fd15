import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Contract section 5: durable per-device delivery, duplicates, blocks and the topic ACL.
@Suite(.timeLimit(.minutes(1)))
struct BrokerMessagingTests {
    /// The text of a delivered PUBLISH, its uid, and its packet id, after checking its shape.
    func delivery(_ packet: Packet?) -> (text: String, from: String?, topic: String, uid: String, packetID: UInt16, dup: Bool)? {
        guard case .publish(let publish)? = packet, let message = try? TextMessage.decode(publish.payload),
              let uid = publish.properties.userProperty(IMUserProperty.messageUID),
              publish.properties.userProperty(IMUserProperty.sentAt).flatMap(Int64.init) != nil,
              publish.qos == .atLeastOnce, publish.properties.contentType == TextMessage.contentType
        else { return nil }
        return (message.text, message.from, publish.topic, uid, publish.packetIdentifier, publish.dup)
    }

    @Test func anOnlineRecipientGetsTheMessageWithSenderUidAndTime() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await alice.sendText("hello", to: "bob", cid: "c1", packetID: 7) == .success)
        let received = try #require(delivery(await bob.next()))
        #expect(received.text == "hello" && received.from == "alice" && received.topic == "im/inbox/alice" && !received.dup)
        try await bob.send(.puback(PubAck(packetIdentifier: received.packetID)))
        await server.stop()
    }

    @Test func offlineMessagesSurviveARestartAndArriveExactlyOnce() async throws {
        let directory = TemporaryDirectory()
        var server = try await TestServer.start(directory: directory)
        // Bob has logged in before with his phone, then went offline.
        let bobBefore = try await server.loggedIn("bob", device: "phone-b")
        bobBefore.close()
        let alice = try await server.loggedIn("alice", device: "phone-a")
        #expect(try await alice.sendText("while you were away", to: "bob", cid: "c1", packetID: 1) == .success)
        await server.stop()

        server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        let received = try #require(delivery(await bob.next()))
        #expect(received.text == "while you were away" && received.from == "alice")
        try await bob.send(.puback(PubAck(packetIdentifier: received.packetID)))
        #expect(await bob.next(within: .milliseconds(500)) == nil)

        // Acknowledged: the next connection of the same device gets nothing again.
        try await Task.sleep(for: .milliseconds(100))
        bob.close()
        let again = try await server.loggedIn("bob", device: "phone-b")
        #expect(await again.next(within: .milliseconds(500)) == nil)
        await server.stop()
    }

    @Test func aUserWhoNeverConnectedGetsMessagesOnFirstLogin() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        #expect(try await alice.sendText("welcome", to: "newcomer", cid: "c1", packetID: 1) == .success)
        let newcomer = try await server.loggedIn("newcomer", device: "phone-n")
        #expect(delivery(await newcomer.next())?.text == "welcome")
        await server.stop()
    }

    @Test func unacknowledgedDeliveriesComeAgainWithDUPAfterReconnecting() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await alice.sendText("one", to: "bob", cid: "c1", packetID: 1) == .success)
        let first = try #require(delivery(await bob.next()))
        #expect(!first.dup)
        bob.close()  // no PUBACK
        try await Task.sleep(for: .milliseconds(100))
        let bobAgain = try await server.loggedIn("bob", device: "phone-b")
        let second = try #require(delivery(await bobAgain.next()))
        #expect(second.uid == first.uid && second.dup)
        await server.stop()
    }

    @Test func aResentCidIsStoredOnce() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        #expect(try await alice.sendText("once", to: "bob", cid: "same", packetID: 1) == .success)
        #expect(try await alice.sendText("once", to: "bob", cid: "same", packetID: 2) == .success)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(delivery(await bob.next())?.text == "once")
        #expect(await bob.next(within: .milliseconds(500)) == nil)
        await server.stop()
    }

    @Test func aBlockedUsersMessagesArriveAfterTheBlockEnds() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        _ = try await server.loggedIn("bob", device: "phone-b")
        try await server.backend.block(appKey: TestServer.appKey, userIDs: ["bob"], minutes: 5)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        #expect(try await alice.sendText("for later", to: "bob", cid: "c1", packetID: 1) == .success)
        try await server.backend.unblock(appKey: TestServer.appKey, userIDs: ["bob"])
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(delivery(await bob.next())?.text == "for later")
        await server.stop()
    }

    @Test func messagesFromTheServerAPIAreDelivered() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        let uid = try await server.backend.publish(appKey: TestServer.appKey, from: "system", to: ["bob"], text: "notice")
        let received = try #require(delivery(await bob.next()))
        #expect(received.text == "notice" && received.from == "system" && received.uid == uid)
        await server.stop()
    }

    @Test func theTopicACLRefusesEverythingButTheInboxAndOwnSends() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        #expect(try await alice.subscribe(["im/inbox/#", "im/inbox/bob", "#", "im/send/bob"], packetID: 2)
            == [.grantedQoS1, .notAuthorized, .notAuthorized, .notAuthorized])
        #expect(try await alice.sendText("x", to: "bob", cid: "c1", packetID: 3, topic: "im/inbox/bob") == .notAuthorized)
        #expect(try await alice.sendText("x", to: "bob", cid: "c2", packetID: 4, topic: "other/topic") == .notAuthorized)
        #expect(try await alice.sendText("x", to: "bob", cid: "c3", packetID: 5, from: "mallory") == .notAuthorized)
        try await alice.send(.publish(Publish(topic: "im/send/bob", payload: Array("not json".utf8), qos: .atLeastOnce, packetIdentifier: 6)))
        guard case .puback(let puback)? = await alice.next() else { Issue.record("no PUBACK"); return }
        #expect(puback.reasonCode == .payloadFormatInvalid)
        // Nothing of that reached bob.
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(await bob.next(within: .milliseconds(500)) == nil)
        await server.stop()
    }

    /// PUBACKs go in the order of their PUBLISHes (MQTT-4.6.0-2): a refusal answered at once
    /// would overtake the PUBACK of a message sent before it and still being stored.
    @Test func refusalsAreAcknowledgedInTheirTurnBehindMessagesBeingStored() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        func publish(_ packetID: UInt16, topic: String = "im/send/bob", payload: [UInt8]? = nil) -> Packet {
            .publish(Publish(topic: topic, payload: payload ?? TextMessage(text: "m\(packetID)", cid: "c\(packetID)").encoded(),
                             qos: .atLeastOnce, packetIdentifier: packetID))
        }
        // One write, so that the server reads all four before the first is stored.
        let packets = [publish(1), publish(2, topic: "other/topic"), publish(3), publish(4, payload: Array("not json".utf8))]
        try await alice.connection.write(packets.flatMap { $0.encoded() })
        var answers: [(UInt16, ReasonCode)] = []
        while answers.count < 4, case .puback(let puback)? = await alice.next() {
            answers.append((puback.packetIdentifier, puback.reasonCode))
        }
        #expect(answers.map(\.0) == [1, 2, 3, 4])
        #expect(answers.map(\.1) == [.success, .notAuthorized, .success, .payloadFormatInvalid])
        await server.stop()
    }
}
