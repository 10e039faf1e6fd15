import IMProtocol
import MQTT

/// The broker's side of PUBLISH: a client's messages checked, stored in the order they came
/// (a batch at a time, reading held back when too much waits) and acknowledged in that order;
/// the server's own messages (the API's, wills) stored the same way. What is stored goes on to
/// `Deliveries`. A part of `BrokerCore`; what waits is each connection's (`BrokerConnection.queue`).
final class Publishing {
    /// How many PUBLISHes, and how many payload bytes, may wait behind the batch being stored
    /// before the connection stops reading.
    static let waitingLimit = (count: 256, bytes: 1 << 20)

    private unowned let core: BrokerCore

    init(core: BrokerCore) {
        self.core = core
    }

    /// A client's PUBLISH: only `im/send/<to>` as itself, QoS 0 or 1, a text payload (section 5).
    func receive(_ publish: Publish, from broker: BrokerConnection) {
        guard let login = broker.login else { return }
        core.counters.messagesReceived += 1
        guard publish.qos != .exactlyOnce else { return core.disconnect(broker, .qosNotSupported) }
        guard !publish.retain else { return core.disconnect(broker, .retainNotSupported) }
        guard publish.properties.topicAlias == nil else { return core.disconnect(broker, .topicAliasInvalid) }
        let packetID = publish.qos == .atLeastOnce ? publish.packetIdentifier : nil
        func answer(_ code: ReasonCode) {
            guard let packetID else { return }
            queue(PendingPublish(packetIdentifier: packetID, content: .refuse(code)), on: broker)
        }
        guard case .send(let recipient)? = IMTopic(publish.topic) else { return answer(.notAuthorized) }
        let message: TextMessage
        do {
            message = try TextMessage.decode(publish.payload)
        } catch {
            return answer(.payloadFormatInvalid)
        }
        if let from = message.from, from != login.userID { return answer(.notAuthorized) }
        let stored = NewMessage(appKey: login.appKey, from: login.userID, to: [recipient], cid: message.cid,
                                text: message.text, sentAt: core.clock.wallMilliseconds())
        queue(PendingPublish(packetIdentifier: packetID, content: .store(stored)), payloadBytes: publish.payload.count, on: broker)
    }

    /// Puts `pending` in line behind the client's earlier PUBLISHes, stores what can be, and
    /// holds the client back when too much waits.
    private func queue(_ pending: PendingPublish, payloadBytes: Int = 0, on broker: BrokerConnection) {
        broker.queue(pending, payloadBytes: payloadBytes)
        storePendingPublishes(broker)
        // Stops reading a client that sends faster than its messages are stored (a slow or
        // locked store, PostgreSQL's round trips): what waits in memory stays bounded, and TCP
        // slows the sender. Reading resumes as the next batch is taken. QoS 0 is held back
        // too, so Receive Maximum alone would not do.
        broker.holdBackIfBehind(Self.waitingLimit)
    }

    /// Stores what the client sent, one batch at a time, then PUBACKs each in order (refusals
    /// among them in their turn) and delivers.
    private func storePendingPublishes(_ broker: BrokerConnection) {
        // A client held back is read again from the next turn, its Keep Alive counting from
        // now; one being sent away is read no more.
        guard let batch = broker.takePublishes(now: core.clock.monotonic(), mayResume: core.departures[broker.id] == nil) else { return }
        let messages = batch.compactMap(\.message)
        guard !messages.isEmpty else {
            broker.finishPublishes()
            for pending in batch { refuse(pending, on: broker) }
            return storePendingPublishes(broker)
        }
        let quota = core.apps[messages[0].appKey]?.queueQuota ?? QueueQuota()
        core.lane.store(messages, quota: quota) { [weak self] result in
            guard let self else { return }
            broker.finishPublishes()
            switch result {
            case .success(let results):
                var results = results.makeIterator()
                for pending in batch {
                    guard let message = pending.message else {
                        refuse(pending, on: broker)
                        continue
                    }
                    // One result for each message stored, in order.
                    guard let stored = results.next() else { break }
                    if let packetID = pending.packetIdentifier {
                        broker.send(.puback(Self.acknowledgement(packetID, stored, quota: quota)))
                    }
                    if !stored.isDuplicate { core.deliveries.notify(message, stored) }
                }
            case .failure(ServerStoreError.unavailable):
                core.counters.messagesRefused[BrokerCounters.Reason(.serverBusy), default: 0] += messages.count
                // The store is out of reach for now: DISCONNECT 0x89 makes the client come back
                // on its schedule and send again what was never acknowledged (a resend of a
                // stored message is found by its cid), where PUBACK 0x80 would make it give up.
                return core.disconnect(broker, .serverBusy, reason: "the server cannot reach its database; connect again later")
            case .failure:
                // Not stored, for a reason that trying again would not change (a passing one is
                // `unavailable`, above): PUBACK 0x80 tells the client to give the message up.
                for pending in batch {
                    guard let packetID = pending.packetIdentifier, pending.message != nil else {
                        refuse(pending, on: broker)
                        continue
                    }
                    core.counters.messagesRefused[BrokerCounters.Reason(.unspecifiedError), default: 0] += 1
                    broker.send(.puback(PubAck(packetIdentifier: packetID, reasonCode: .unspecifiedError,
                                               properties: [.reasonString("the server could not store the message")])))
                }
            }
            storePendingPublishes(broker)
            core.leaveIfSettled(broker)
        }
    }

    private func refuse(_ pending: PendingPublish, on broker: BrokerConnection) {
        guard case .refuse(let code) = pending.content else { return }
        core.counters.messagesRefused[BrokerCounters.Reason(code), default: 0] += 1
        guard let packetID = pending.packetIdentifier else { return }
        broker.send(.puback(PubAck(packetIdentifier: packetID, reasonCode: code)))
    }

    /// PUBACK 0x00 for a stored message; 0x97 with `im-error` `quota-exceeded` and the figures
    /// for one the sender's quota refused.
    static func acknowledgement(_ packetID: UInt16, _ stored: StoredMessageResult, quota: QueueQuota) -> PubAck {
        guard let usage = stored.overQuota else { return PubAck(packetIdentifier: packetID, reasonCode: .success) }
        var properties: Properties = [.reasonString(
            "\(usage.messages) messages (\(usage.bytes) bytes) you sent are waiting for delivery; "
                + "the app allows \(quota.messages) messages, \(quota.bytes) bytes")]
        properties.appendUserProperty(IMUserProperty.error, IMErrorName.quotaExceeded.rawValue)
        return PubAck(packetIdentifier: packetID, reasonCode: .quotaExceeded, properties: properties)
    }

    /// Stores a message that did not come from a client's PUBLISH (the server API's, a will)
    /// and hands it to its recipients' connections, as for a client's: through the lane, so
    /// that the lane sees every message this server stores, in order.
    func store(_ message: NewMessage, quota: QueueQuota?, then: @escaping (Result<StoredMessageResult, any Error>) -> Void) {
        core.lane.store([message], quota: quota) { [weak self] result in
            then(result.map { results in
                // One message in, one result out.
                let stored = results[0]
                if !stored.isDuplicate { self?.core.deliveries.notify(message, stored) }
                return stored
            })
        }
    }
}
