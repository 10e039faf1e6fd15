import IMEngine
import IMProtocol
import MQTT
import Synchronization
import Testing
import TestSupport

/// Contract section 5 end to end: sending, resending after reconnection, receiving.
@Suite(.timeLimit(.minutes(1)))
struct SessionMessageTests {
    @Test func sendStoresPendingBeforeTheWireAndMarksSentOnPubAck() async throws {
        let path = Mutex<String?>(nil)
        let statesSeenByBroker = Mutex<[Int?]>([])
        let broker = try ScriptedBroker(.init(publishAcknowledgement: { _, publish in
            // The moment the PUBLISH arrives, the message must already be in the database, pending.
            let cid = (try? TextMessage.decode(publish.payload))?.cid ?? ""
            if let path = path.withLock({ $0 }) {
                statesSeenByBroker.withLock { $0.append(DatabaseProbe.state(cid: cid, in: path)) }
            }
            return .success
        }))
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            _ = try await session.connect()
            path.withLock { $0 = nil }
            let file = await session.databaseFile
            path.withLock { $0 = file }
            let reports = await session.sendReports()
            let message = try await session.send(text: "hello bob", to: "bob")
            #expect(message.state == .pending && message.peer == "bob")

            var iterator = reports.makeAsyncIterator()
            let report = await iterator.next()
            #expect(report == SendReport(cid: message.cid ?? "", reasonCode: .success))
            #expect(statesSeenByBroker.withLock { $0 } == [1])

            let publish = try #require(broker.publishes.first)
            #expect(publish.topic == "im/send/bob")
            #expect(publish.qos == .atLeastOnce && !publish.dup)
            #expect(publish.properties.payloadFormatIndicator == .utf8)
            #expect(publish.properties.contentType == "application/json")
            #expect(try TextMessage.decode(publish.payload) == TextMessage(text: "hello bob", cid: message.cid ?? ""))
            #expect(try await session.pendingOutgoing().isEmpty)
            #expect(try await session.history(peer: "bob").map(\.state) == [.sent])
            await session.close()
        }
        await test.shutdown()
    }

    /// A new engine's session connected to a scripted broker that accepts everything.
    private func withConnectedSession(_ body: @escaping @Sendable (ScriptedBroker, Session) async throws -> Void) async throws {
        let broker = try ScriptedBroker(.init())
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            _ = try await session.connect()
            try await body(broker, session)
            await session.close()
        }
        await test.shutdown()
    }

    @Test func concurrentSendsAreEachStoredPublishedAndAcknowledgedOnce() async throws {
        try await withConnectedSession { broker, session in
            let reports = await session.sendReports()
            let sent = try await withThrowingTaskGroup(of: StoredMessage.self) { group in
                for number in 0..<60 { group.addTask { try await session.send(text: "m\(number)", to: "bob") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let cids = Set(sent.compactMap(\.cid))
            #expect(cids.count == 60 && sent.allSatisfy { $0.state == .pending })
            var acknowledged: Set<String> = []
            var iterator = reports.makeAsyncIterator()
            while acknowledged.count < 60, let report = await iterator.next() { acknowledged.insert(report.cid) }
            #expect(acknowledged == cids)
            let published = broker.publishes.compactMap { try? TextMessage.decode($0.payload).cid }
            #expect(published.count == 60 && Set(published) == cids, "each published once")
            // Each stored once under its own row, in the order of their ids.
            let history = try await session.history(peer: "bob", limit: 100)
            #expect(history.count == 60 && history.allSatisfy { $0.state == .sent })
            #expect(published == history.compactMap(\.cid), "published in the order stored")
        }
    }

    @Test func unacknowledgedSendIsResentWithTheSameCIDAfterReconnection() async throws {
        // The first connection never acknowledges; the second does.
        try await withBroker(.init(publishAcknowledgement: { index, _ in index == 0 ? nil : .success })) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let message = try await session.send(text: "survives", to: "bob")
            #expect(await eventually { broker.publishes.count == 1 })
            broker.close(0)

            #expect(await eventually { broker.publishes.count == 2 })
            #expect(broker.connects.count == 2)
            #expect(broker.connects[1].userProperty(IMUserProperty.reconnect) == "1")
            let (first, again) = (broker.publishes[0], broker.publishes[1])
            #expect(try TextMessage.decode(again.payload).cid == message.cid)
            #expect(again.packetIdentifier == first.packetIdentifier && again.dup)
            #expect(broker.packets(on: 1).contains { if case .publish = $0 { true } else { false } })
            #expect(await eventually { (try? await session.pendingOutgoing().isEmpty) == true })
            await session.close()
        }
    }

    @Test func aSendRightAfterReconnectingGoesOutAfterTheOlderResends() async throws {
        // Nothing is acknowledged: each connection publishes again every message sent so far.
        try await withBroker(.init(publishAcknowledgement: { _, _ in nil })) { broker, test in
            let session = test.session()
            var sent: [String] = []
            // A send made as soon as the session is back must not overtake the messages still
            // waiting for their PUBACK, published again on the new connection. Whether it
            // could is a race with the read of those messages: several rounds give it chances.
            for round in 0..<6 {
                _ = try await session.connect()
                sent.append(try await session.send(text: "m\(round)", to: "bob").cid ?? "")
                let count = sent.count
                #expect(await eventually { broker.publishes(on: round).count == count })
                #expect(broker.publishes(on: round).map { (try? TextMessage.decode($0.payload))?.cid } == sent, "round \(round)")
                await session.disconnect()
                #expect(await session.reached(.signOut))
            }
            await session.close()
        }
    }

    @Test func pendingSendsWaitForTheConnection() async throws {
        // No CONNACK for the first connection: the message waits, then goes out after CONNACK.
        try await withBroker(.init(connack: { index, connect in index == 0 ? nil : ScriptedBroker.accept(connect) }), attemptTimeout: .milliseconds(300)) { broker, test in
            let session = test.session()
            await session.connect(completion: nil)
            #expect(await eventually { broker.connects.count == 1 })
            let message = try await session.send(text: "later", to: "bob")
            #expect(broker.publishes.isEmpty)
            #expect(await session.reached(.connected))
            #expect(await eventually { broker.publishes.count == 1 })
            #expect(try TextMessage.decode(broker.publishes[0].payload).cid == message.cid)
            await session.close()
        }
    }

    @Test func aBurstIsStoredOnceAndAcknowledgedInArrivalOrder() async throws {
        try await withConnectedSession { broker, session in
            let received = await session.receivedMessages()
            func delivery(_ id: UInt16, uid: String, topic: String = "im/inbox/bob") -> Packet {
                .publish(Publish(
                    topic: topic, payload: TextMessage(text: "m \(uid)", cid: "c-\(uid)", from: "bob").encoded(),
                    qos: .atLeastOnce, packetIdentifier: id,
                    properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType),
                                 .userProperty(IMUserProperty.messageUID, uid), .userProperty(IMUserProperty.sentAt, "1")]))
            }
            // 40 messages in one write, with a repeated uid and one on a topic that is no inbox.
            var burst = (0..<40).map { delivery(UInt16(100 + $0), uid: "u-\($0)") }
            burst.insert(delivery(200, uid: "u-3"), at: 10)
            burst.insert(delivery(201, uid: "u-x", topic: "elsewhere"), at: 20)
            broker.send(burst, on: 0)
            #expect(await eventually { broker.pubAcks.count == 42 })

            let expectedOrder = burst.compactMap { packet -> UInt16? in
                if case .publish(let publish) = packet { return publish.packetIdentifier } else { return nil }
            }
            #expect(broker.pubAcks.map(\.packetIdentifier) == expectedOrder)
            #expect(broker.pubAcks.filter { $0.reasonCode != .success }.map(\.packetIdentifier) == [201])
            var iterator = received.makeAsyncIterator()
            var uids: [String] = []
            while uids.count < 40, let message = await iterator.next() { uids.append(message.uid ?? "") }
            #expect(uids == (0..<40).map { "u-\($0)" })
            let stored = try await session.history(limit: 100)
            #expect(stored.count == 40)
        }
    }

    @Test func incomingMessageIsStoredBeforeItsPubAckAndADuplicateUIDIsIgnored() async throws {
        let path = Mutex<String?>(nil)
        let countsAtPubAck = Mutex<[Int]>([])
        let broker = try ScriptedBroker(.init(onPubAck: { _, _ in
            if let path = path.withLock({ $0 }) {
                countsAtPubAck.withLock { $0.append(DatabaseProbe.count(uid: "u-1", in: path)) }
            }
        }))
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            _ = try await session.connect()
            let file = await session.databaseFile
            path.withLock { $0 = file }
            let received = await session.receivedMessages()
            let events = test.engine.hub.subscribe(session: session.id)
            let delivery = Publish(
                topic: "im/inbox/bob", payload: TextMessage(text: "hi alice", cid: "c-9", from: "bob").encoded(),
                qos: .atLeastOnce, packetIdentifier: 7,
                properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType),
                             .userProperty(IMUserProperty.messageUID, "u-1"), .userProperty(IMUserProperty.sentAt, "1234")])
            broker.send(.publish(delivery), on: 0)
            #expect(await eventually { broker.pubAcks.count == 1 })
            var duplicate = delivery
            duplicate.packetIdentifier = 8
            broker.send(.publish(duplicate), on: 0)
            #expect(await eventually { broker.pubAcks.count == 2 })

            #expect(broker.pubAcks.map(\.packetIdentifier) == [7, 8])
            #expect(broker.pubAcks.allSatisfy { $0.reasonCode == .success })
            #expect(countsAtPubAck.withLock { $0 } == [1, 1])
            var iterator = received.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.uid == "u-1" && first?.text == "hi alice" && first?.peer == "bob" && first?.sentAt == 1234)
            let history = try await session.history()
            #expect(history.map(\.uid) == ["u-1"])
            // The resend is reported as dropped, after the message, for a bench to count apart.
            var reported: [String] = []
            while reported.count < 2, let event = await events.next() {
                switch event.kind {
                case .message(let message): reported.append("message \(message.uid ?? "")")
                case let .duplicateDropped(uid, peer): reported.append("dropped \(uid) from \(peer)")
                default: break
                }
            }
            events.cancel()
            #expect(reported == ["message u-1", "dropped u-1 from bob"])
            await session.close()
        }
        await test.shutdown()
    }

    @Test func invalidPayloadIsRefusedAndNotStored() async throws {
        try await withBroker { broker, test in
            let session = test.session()
            _ = try await session.connect()
            broker.send(.publish(Publish(topic: "im/inbox/bob", payload: Array("not json".utf8), qos: .atLeastOnce,
                                         packetIdentifier: 3, properties: [.userProperty(IMUserProperty.messageUID, "u-2")])), on: 0)
            #expect(await eventually { broker.pubAcks.count == 1 })
            #expect(broker.pubAcks.first?.reasonCode == .payloadFormatInvalid)
            #expect(try await session.history().isEmpty)
            await session.close()
        }
    }

    @Test func sendingWithoutAConnectionIsRefused() async throws {
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        let session = test.session()
        await #expect(throws: EngineError.notConnected("connect before sending")) {
            try await session.send(text: "x", to: "bob")
        }
        _ = try await session.connect()
        await #expect(throws: EngineError.invalidParameter("recipient 'not valid!' is not a valid user id")) {
            try await session.send(text: "x", to: "not valid!")
        }
        await session.close()
        await test.shutdown()
    }

    @Test func refusedSendIsMarkedFailedAndNotResent() async throws {
        try await withBroker(.init(publishAcknowledgement: { _, _ in .notAuthorized })) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let reports = await session.sendReports()
            let message = try await session.send(text: "to nobody", to: "bob")
            var iterator = reports.makeAsyncIterator()
            let report = await iterator.next()
            #expect(report?.cid == message.cid && report?.isAccepted == false && report?.reasonCode == .notAuthorized)
            #expect(try await session.history().map(\.state) == [.failed])
            broker.close(0)
            #expect(await eventually { broker.connects.count == 2 && broker.packets(on: 1).contains { $0.type == .subscribe } })
            try await Task.sleep(for: .milliseconds(100))
            #expect(broker.publishes.count == 1)
        }
    }
}
