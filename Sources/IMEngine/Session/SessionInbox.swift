import IMProtocol
import IMTransport
import MQTT
import Synchronization

/// Receives a session's messages and PUBACKs on its connection's event loop: stores each
/// burst of messages in one transaction and acknowledges it, with no task in between.
///
/// The receive path of every message is here, not in the session actor: a PUBLISH handed to a
/// reader task, then to the actor, then to the database, then back to the actor and on to the
/// loop woke a thread at each step. Now the loop gathers what one turn read and stores it (a
/// known uid is skipped), itself when the database is idle, else through the database's queue;
/// the PUBACKs go out in arrival order, as MQTT asks, and the new messages to the event hub.
/// The server's PUBACKs go to the session's outbox on the same loop. Other packets still go to
/// the actor in order; after one that ends the connection (a DISCONNECT, a violation such as a
/// PUBLISH that cannot be parsed) the inbox takes nothing more, so nothing after it is stored.
final class SessionInbox: FrameTap {
    private final class Gathered {
        var publishes: [Publish] = []
        /// A packet that ends the connection went to the actor.
        var stopped = false
        /// Stores handed to the database's queue and not yet back: later ones queue behind them.
        var queued = 0
    }

    private let outbox: SessionOutbox
    private var database: SessionDatabase { outbox.database }
    private let clock: any EngineClock
    private let gathered: LoopBound<Gathered>
    /// When a message last arrived (`clock.now` in nanoseconds), for the heartbeat.
    private let lastArrival = Atomic<Int64>(.min)

    init(outbox: SessionOutbox, clock: any EngineClock, loop: EventLoop) {
        self.outbox = outbox
        self.clock = clock
        gathered = LoopBound(Gathered(), loop: loop)
    }

    /// When the last message or PUBACK arrived; nil before the first.
    var lastReceived: Duration? {
        let nanoseconds = lastArrival.load(ordering: .relaxed)
        return nanoseconds == .min ? nil : .nanoseconds(nanoseconds)
    }

    func take(_ frame: [UInt8], from connection: Connection) -> Bool {
        let gathered = self.gathered.value
        guard !gathered.stopped, let type = frame.first.map({ $0 >> 4 }) else { return false }
        // SUBACK, UNSUBACK and PINGRESP leave the connection as it was. Anything else
        // ends it in the actor (DISCONNECT, a violation such as a malformed PUBACK), and what
        // follows is not the session's: from there on every frame goes to the actor, which drops it.
        let packet = type == 3 || type == 4 ? try? Packet(frame: frame) : nil
        if case .puback(let acknowledgement)? = packet {
            noteArrival()
            outbox.acknowledgedHere([acknowledgement], on: connection)
            return true
        }
        guard case .publish(let publish)? = packet else {
            if ![9, 11, 13].contains(type) { gathered.stopped = true }
            return false
        }
        if gathered.publishes.isEmpty {
            connection.loop.executeAtEndOfTurn { [self] in
                let gathered = self.gathered.value
                let publishes = gathered.publishes
                gathered.publishes = []
                store(publishes, from: connection)
            }
        }
        gathered.publishes.append(publish)
        noteArrival()
        return true
    }

    private func noteArrival() {
        let (seconds, attoseconds) = clock.now.components
        lastArrival.store(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// Stores what one turn read, then acknowledges it; not stored, not acknowledged (the server
    /// delivers it again), except what was refused for good.
    ///
    /// On the loop itself when the database is idle and nothing of this inbox waits on its
    /// queue (a short write costs less than two threads woken for it); else on the database's
    /// queue, in order behind what waits there. A turn that read only refusals takes the same
    /// way, so its PUBACKs keep their place after earlier ones.
    private func store(_ publishes: [Publish], from connection: Connection) {
        let (answers, batch) = Self.sort(publishes, now: clock.epochMilliseconds)
        let gathered = self.gathered.value
        if gathered.queued == 0, let stored = database.receiveHere(batch) {
            announce(stored, of: batch)
            for packet in Self.acknowledgements(answers) { _ = try? connection.send(packet) }
            return
        }
        gathered.queued += 1
        database.receive(batch) { [self] result in
            var acknowledged = answers
            if case .success(let stored) = result {
                announce(stored, of: batch)
            } else {
                acknowledged.removeAll { $0.reason == nil }
            }
            let packets = Self.acknowledgements(acknowledged)
            // In one closure, so that a store made on the loop cannot acknowledge in between.
            connection.loop.execute {
                for packet in packets { _ = try? connection.send(packet) }
                self.gathered.value.queued -= 1
            }
        }
    }

    /// Each new message to the hub, and each one `batch` held that was stored before (nil in `stored`).
    private func announce(_ stored: [StoredMessage?], of batch: [SessionDatabase.Incoming]) {
        for (message, incoming) in zip(stored, batch) {
            let kind: SessionEvent.Kind = message.map { .message($0) } ?? .duplicateDropped(uid: incoming.uid, peer: incoming.peer)
            outbox.hub.publish(kind, latestOf: outbox.session)
        }
    }

    /// The PUBACKs of the QoS 1 PUBLISHes among `answers`, in their order.
    private static func acknowledgements(_ answers: [Answer]) -> [[UInt8]] {
        answers.filter { $0.publish.qos == .atLeastOnce }.map {
            Packet.puback(PubAck(packetIdentifier: $0.publish.packetIdentifier, reasonCode: $0.reason ?? .success)).encoded()
        }
    }

    /// A PUBLISH and its answer: nil until stored, or the reason it was refused for good.
    typealias Answer = (publish: Publish, reason: ReasonCode?)

    /// Each PUBLISH's answer (nil: store it first) and the messages to store, in arrival order.
    static func sort(_ publishes: [Publish], now: Int64) -> ([Answer], [SessionDatabase.Incoming]) {
        var answers: [Answer] = []
        var batch: [SessionDatabase.Incoming] = []
        for publish in publishes {
            guard case .inbox(let from)? = IMTopic(publish.topic) else {
                answers.append((publish, .topicNameInvalid))
                continue
            }
            guard let message = try? TextMessage.decode(publish.payload) else {
                answers.append((publish, .payloadFormatInvalid))
                continue
            }
            let properties = publish.properties
            // A stock broker sends no uid: sender and cid then identify the message.
            let uid = properties.userProperty(IMUserProperty.messageUID) ?? "\(from)/\(message.cid)"
            let sentAt = properties.userProperty(IMUserProperty.sentAt).flatMap { Int64($0) } ?? now
            batch.append(SessionDatabase.Incoming(uid: uid, from: from, text: message.text, cid: message.cid, sentAt: sentAt))
            answers.append((publish, nil))
        }
        return (answers, batch)
    }
}
