import IMProtocol
import MQTT

/// The broker's deliveries to its clients: the inbox subscription, reads of a device's queue
/// into its connection's window, messages offered as they are stored, and the PUBACKs that
/// drop them from the queue. A part of `BrokerCore`.
///
/// A connection's own side of it (its subscription, the reading of its queue, what is in
/// flight) is the connection's (`BrokerConnection.Delivery`); what outlives a connection is here.
final class Deliveries {
    private unowned let core: BrokerCore
    /// Messages sent to a device and not acknowledged, so a resend after reconnection carries DUP.
    private(set) var unacknowledged: [DeviceKey: Set<Int64>] = [:]

    init(core: BrokerCore) {
        self.core = core
    }

    /// A SUBSCRIBE: the inbox is granted at QoS 1 at most; any other filter is refused (0x87).
    ///
    /// Deliveries go at the granted QoS (MQTT-3.8.4-8: no message is above QoS 1). At QoS 0 a
    /// stored message is sent once and dropped from the device's queue as soon as it is written
    /// to the connection: no PUBACK comes, so none is awaited and nothing is resent.
    func subscribe(_ broker: BrokerConnection, _ subscribe: Subscribe) {
        var codes: [ReasonCode] = []
        for subscription in subscribe.subscriptions {
            if !Topic.isValidFilter(subscription.topicFilter) {
                codes.append(.topicFilterInvalid)
            } else if subscription.topicFilter == IMTopic.inboxFilter {
                let qos = min(subscription.options.qos, .atLeastOnce)
                broker.subscribe(at: qos)
                codes.append(.granted(qos))
            } else {
                codes.append(.notAuthorized)
            }
        }
        broker.send(.suback(SubAck(packetIdentifier: subscribe.packetIdentifier, reasonCodes: codes)))
        pump(broker)
        // The first fetch of the queue follows, and then the client usually idles.
        core.loop.trimHeapWhenIdle()
    }

    func unsubscribe(_ broker: BrokerConnection, _ unsubscribe: Unsubscribe) {
        let codes: [ReasonCode] = unsubscribe.topicFilters.map { filter in
            guard filter == IMTopic.inboxFilter, broker.unsubscribe() else { return .noSubscriptionExisted }
            return .success
        }
        broker.send(.unsuback(UnsubAck(packetIdentifier: unsubscribe.packetIdentifier, reasonCodes: codes)))
    }

    /// Sends the device's queued messages, as many as its window allows, fetching from the store.
    ///
    /// One fetch at a time per connection; a wake-up during a fetch asks for another after it.
    func pump(_ broker: BrokerConnection) {
        guard let (login, room) = broker.beginRead() else { return }
        core.counters.queueReads += 1
        core.lane.pending(login.device, after: broker.lastQueuedMessageID, limit: room) { [weak self] result in
            guard let self else { return }
            let again = broker.endRead()
            guard let qos = broker.delivery?.qos else { return }
            guard case .success(let read) = result else {
                // Nothing would read this queue again before the device reconnects: ask it to
                // (0x89, as for a PUBLISH that cannot be stored), so it is read then.
                return core.disconnect(broker, .serverBusy, reason: "the server cannot read its database; connect again later")
            }
            for message in read.messages { deliver(message, to: broker, login.device, at: qos) }
            // At QoS 0 nothing stays in flight, so the outgoing buffer is the only brake:
            // a full one resumes the pump from connectionDidBecomeWritable.
            let more = read.messages.count == room || again
            if !more && read.caughtUp { broker.catchUp() }
            if more && (qos == .atLeastOnce || broker.connection.isWritable) { pump(broker) }
        }
    }

    /// Sends a message just stored to `broker` without reading its queue, when that can neither
    /// skip nor repeat one: no read is under way, the connection is subscribed, the window has
    /// room, and nothing can be missing before the message. With `previous` (the newest message
    /// queued for the device before it, from the store), that is when the connection handed
    /// that one over (ids up to `lastQueuedMessageID` all were: reads go in id order and offers
    /// leave no gap); without, when the connection is caught up (`Delivery.Reading.caughtUp`:
    /// on one node every store is answered on this loop in store order). Returns whether the
    /// message is taken care of (sent now, or already read with the queue).
    private func offer(_ message: QueuedMessage, previous: Int64?, to broker: BrokerConnection) -> Bool {
        guard let delivery = broker.delivery, delivery.subscribed, let login = broker.login else { return false }
        switch delivery.reading {
        case .fetching: return false
        case .idle: guard previous != nil else { return false }
        case .caughtUp: break
        }
        guard message.messageID > broker.lastQueuedMessageID else { return true }
        guard (previous ?? 0) <= broker.lastQueuedMessageID, broker.room > 0,
              delivery.qos == .atLeastOnce || broker.connection.isWritable else {
            broker.fallBehind()
            return false
        }
        deliver(message, to: broker, login.device, at: delivery.qos)
        return true
    }

    /// Sends `message` at `qos` (the connection's, as it was when the delivery began: a
    /// connection that closes on the way still counts what it was handed).
    private func deliver(_ message: QueuedMessage, to broker: BrokerConnection, _ device: DeviceKey, at qos: QoS) {
        broker.handedOver(message.messageID)
        let payload = TextMessage(text: message.text, cid: message.cid).delivered(from: message.from).encoded()
        var publish = Publish(
            topic: IMTopic.inbox(from: message.from).name, payload: payload, qos: qos,
            properties: [
                .payloadFormatIndicator(.utf8),
                .contentType(TextMessage.contentType),
                .userProperty(IMUserProperty.messageUID, message.uid),
                .userProperty(IMUserProperty.sentAt, String(message.sentAt)),
            ])
        // MQTT-3.1.2-24/25: a packet over the client's Maximum Packet Size is not sent; the
        // message is dropped from the device's queue as if delivered (or it would block it).
        let fits = broker.clientMaximumPacketSize.map { Packet.publish(publish).encoded().count <= Int($0) } ?? true
        if fits && qos == .atLeastOnce {
            publish.packetIdentifier = broker.takePacketIdentifier(for: message.messageID)
            publish.dup = !unacknowledged[device, default: []].insert(message.messageID).inserted
        }
        if fits {
            broker.send(.publish(publish))
            core.counters.messagesDelivered += 1
        }
        if (!fits || qos == .atMostOnce) && broker.stage == .online {
            core.lane.acknowledge(device, messageIDs: [message.messageID]) { _ in }
        }
    }

    /// A PUBACK for a delivery: the device has the message; drop it from its queue and send
    /// more, reading the queue only when it may hold more than was sent: a caught-up connection
    /// is offered each new message as it is stored, so the freed room needs no read (at light
    /// load that read was a transaction per message). Nor does a read under way need another
    /// for the room: one that fills the window it was given reads on by itself. Asking for one
    /// kept connections across nodes reading, a PUBACK arriving during nearly every read: 28-40
    /// reads a second per node at 1,000 messages/s, two fifths of them finding nothing (issue 42).
    func acknowledged(_ broker: BrokerConnection, _ packetID: UInt16) {
        guard let login = broker.login, let messageID = broker.settle(packetID) else { return }
        core.counters.messagesAcknowledged += 1
        unacknowledged[login.device]?.remove(messageID)
        // Every device ever served would otherwise keep an entry for the server's lifetime.
        if unacknowledged[login.device]?.isEmpty == true { unacknowledged[login.device] = nil }
        // Handed over at once: the lane gathers acknowledgements as suits its store.
        core.lane.acknowledge(login.device, messageIDs: [messageID]) { _ in }
        if broker.delivery?.reading == .idle { pump(broker) }
    }

    /// Hands a message just stored to the online connections of its devices: at once to a
    /// connection that can take it without a read (`offer`), else by waking the connection to
    /// read its queue.
    func notify(_ message: NewMessage, _ stored: StoredMessageResult) {
        if stored.overQuota == nil {
            core.counters.messagesStored += 1
        } else {
            core.counters.messagesRefused[BrokerCounters.Reason(.quotaExceeded, .quotaExceeded), default: 0] += 1
        }
        notify(appKey: message.appKey, stored.deliveries, message: QueuedMessage(message, stored: stored))
    }

    /// Hands `message` (nil: not known here, only that one was queued) to the online
    /// connections of these devices, or wakes them to fetch their queues.
    func notify(appKey: String, _ deliveries: [Delivery], message: QueuedMessage?) {
        for delivery in deliveries {
            core.online.forEach(of: UserKey(appKey: appKey, userID: delivery.userID)) { broker in
                guard broker.login?.deviceID == delivery.deviceID else { return }
                if let message, offer(message, previous: delivery.previous, to: broker) { return }
                pump(broker)
            }
        }
    }
}
