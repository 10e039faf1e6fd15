import IMEngine
import IMProtocol
import IMStore
import MQTT
import Synchronization
import Testing
import TestSupport

/// Incoming batches whose connection ends while they are being stored or handled. Another
/// connection's lock is taken while the session had given its file back, idle (while open the
/// file is the session's alone).
@Suite(.timeLimit(.minutes(1)))
struct SessionBatchRaceTests {
    private static func delivery(_ id: UInt16, uid: String) -> Packet {
        .publish(Publish(
            topic: "im/inbox/bob", payload: TextMessage(text: "m \(uid)", cid: "c-\(uid)", from: "bob").encoded(),
            qos: .atLeastOnce, packetIdentifier: id,
            properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType),
                         .userProperty(IMUserProperty.messageUID, uid), .userProperty(IMUserProperty.sentAt, "1")]))
    }

    @Test func aMessageStoredWhileTheAppDisconnectsIsStillAnnounced() async throws {
        try await withBroker(databaseIdleClose: .milliseconds(100)) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let announced = Mutex<[String]>([])
            await session.addMessageHandler(identifier: "test") { message in
                announced.withLock { $0.append(message.uid ?? "") }
            }
            broker.send(Self.delivery(1, uid: "u-0"), on: 0)
            #expect(await eventually { announced.withLock { $0 } == ["u-0"] })

            let path = try #require(await session.databaseFile)
            let holder = try await DatabaseProbe.holdWriteLock(path)
            broker.send(Self.delivery(2, uid: "u-1"), on: 0)
            // The store of u-1 now waits for the lock; the app disconnects meanwhile.
            try await Task.sleep(for: .milliseconds(500))
            await session.disconnect()
            try holder.executeScript("ROLLBACK")
            holder.close()

            #expect(await eventually { DatabaseProbe.count(uid: "u-1", in: path) == 1 }, "u-1 was stored")
            #expect(await eventually(within: .seconds(3)) { announced.withLock { $0 } == ["u-0", "u-1"] },
                    "a stored message reaches the message handlers")
            await session.close()
        }
    }

    @Test func messagesThatMeetAnotherConnectionsLockAreStoredAfterItAndAcknowledgedInOrder() async throws {
        try await withBroker(databaseIdleClose: .milliseconds(100)) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let path = try #require(await session.databaseFile)
            let holder = try await DatabaseProbe.holdWriteLock(path)
            broker.send(Self.delivery(1, uid: "u-1"), on: 0)
            broker.send(Self.delivery(2, uid: "u-2"), on: 0)
            // The loop does not wait for the lock (it would stall every session on it) and
            // nothing is acknowledged before it is stored.
            try await Task.sleep(for: .milliseconds(300))
            let early = broker.packets(on: 0).filter { if case .puback = $0 { true } else { false } }
            #expect(early.isEmpty)
            try holder.executeScript("ROLLBACK")
            holder.close()
            #expect(await eventually { DatabaseProbe.count(uid: "u-2", in: path) == 1 })
            #expect(DatabaseProbe.count(uid: "u-1", in: path) == 1)
            #expect(await eventually {
                broker.packets(on: 0).compactMap { if case .puback(let ack) = $0 { ack.packetIdentifier } else { nil } } == [UInt16(1), 2]
            })
            await session.close()
        }
    }

    @Test func framesAfterAProtocolViolationInTheSameBatchAreDropped() async throws {
        try await withBroker { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let path = try #require(await session.databaseFile)
            // A second CONNACK breaks the protocol; the PUBLISH behind it, in the same write,
            // belongs to a connection the client has already dropped.
            broker.send([.connack(ConnAck(reasonCode: .success)), Self.delivery(1, uid: "u-1")], on: 0)
            // The client is back once it subscribed again on the second connection.
            #expect(await eventually {
                broker.packets(on: 1).contains { if case .subscribe = $0 { true } else { false } }
            })
            broker.send(Self.delivery(2, uid: "u-2"), on: 1)
            #expect(await eventually { DatabaseProbe.count(uid: "u-2", in: path) == 1 })
            #expect(DatabaseProbe.count(uid: "u-1", in: path) == 0)
            #expect(broker.packets(on: 0).allSatisfy { if case .puback = $0 { false } else { true } })
            await session.close()
        }
    }
}
