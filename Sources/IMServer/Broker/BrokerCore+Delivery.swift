import IMProtocol
import MQTT

extension BrokerCore {
    /// A SUBSCRIBE: the inbox is granted at QoS 1 at most; any other filter is refused (0x87).
    ///
    /// Deliveries go at the granted QoS (MQTT-3.8.4-8: no message is above QoS 1). At QoS 0 a
    /// stored message is sent once and dropped from the device's queue as soon as it is written
    /// to the connection: no PUBACK comes, so none is awaited and nothing is resent.
    func handleSubscribe(_ broker: BrokerConnection, _ subscribe: Subscribe) {
        var codes: [ReasonCode] = []
        for subscription in subscribe.subscriptions {
            if !Topic.isValidFilter(subscription.topicFilter) {
                codes.append(.topicFilterInvalid)
            } else if subscription.topicFilter == IMTopic.inboxFilter {
                broker.subscribed = true
                broker.deliveryQoS = min(subscription.options.qos, .atLeastOnce)
                codes.append(.granted(broker.deliveryQoS))
            } else {
                codes.append(.notAuthorized)
            }
        }
        broker.send(.suback(SubAck(packetIdentifier: subscribe.packetIdentifier, reasonCodes: codes)))
        pump(broker)
        // The first fetch of the queue follows, and then the client usually idles.
        loop.trimHeapWhenIdle()
    }

    func handleUnsubscribe(_ broker: BrokerConnection, _ unsubscribe: Unsubscribe) {
        let codes: [ReasonCode] = unsubscribe.topicFilters.map { filter in
            guard filter == IMTopic.inboxFilter, broker.subscribed else { return .noSubscriptionExisted }
            broker.subscribed = false
            return .success
        }
        broker.send(.unsuback(UnsubAck(packetIdentifier: unsubscribe.packetIdentifier, reasonCodes: codes)))
    }

    /// Sends the device's queued messages, as many as its window allows, fetching from the store.
    ///
    /// One fetch at a time per connection; a wake-up during a fetch asks for another after it.
    func pump(_ broker: BrokerConnection) {
        guard broker.phase == .online, broker.subscribed, let login = broker.login else { return }
        guard !broker.fetching else {
            broker.fetchAgain = true
            return
        }
        let room = broker.window - broker.inflight.count
        guard room > 0 else { return }
        broker.fetching = true
        broker.fetchAgain = false
        broker.caughtUp = false
        lane.pending(login.device, after: broker.lastQueuedMessageID, limit: room) { [weak self] result in
            guard let core = self else { return }
            broker.fetching = false
            guard broker.phase == .online else { return }
            guard case .success(let read) = result else {
                // Nothing would read this queue again before the device reconnects: ask it to
                // (0x89, as for a PUBLISH that cannot be stored), so it is read then.
                return core.disconnect(broker, .serverBusy, reason: "the server cannot read its database; connect again later")
            }
            for message in read.messages { core.deliver(message, to: broker, login.device) }
            // At QoS 0 nothing stays in flight, so the outgoing buffer is the only brake:
            // a full one resumes the pump from connectionDidBecomeWritable.
            let more = read.messages.count == room || broker.fetchAgain
            broker.caughtUp = !more && read.caughtUp
            if more && (broker.deliveryQoS == .atLeastOnce || broker.connection.isWritable) { core.pump(broker) }
        }
    }

    /// Sends a message just stored to `broker` without reading its queue, when that can neither
    /// skip nor repeat one: the connection's last read left it caught up (`QueueRead.caughtUp`)
    /// with every message stored since handed over, no read is under way, and the window has room. Returns whether
    /// the message is taken care of (sent now, or already read with the queue).
    func offer(_ message: QueuedMessage, to broker: BrokerConnection) -> Bool {
        guard broker.caughtUp, !broker.fetching, broker.phase == .online, broker.subscribed,
              let login = broker.login else { return false }
        guard message.messageID > broker.lastQueuedMessageID else { return true }
        guard broker.window > broker.inflight.count, broker.deliveryQoS == .atLeastOnce || broker.connection.isWritable else {
            broker.caughtUp = false
            return false
        }
        deliver(message, to: broker, login.device)
        return true
    }

    private func deliver(_ message: QueuedMessage, to broker: BrokerConnection, _ device: DeviceKey) {
        broker.lastQueuedMessageID = max(broker.lastQueuedMessageID, message.messageID)
        let payload = TextMessage(text: message.text, cid: message.cid).delivered(from: message.from).encoded()
        var publish = Publish(
            topic: IMTopic.inbox(from: message.from).name, payload: payload, qos: broker.deliveryQoS,
            properties: [
                .payloadFormatIndicator(.utf8),
                .contentType(TextMessage.contentType),
                .userProperty(IMUserProperty.messageUID, message.uid),
                .userProperty(IMUserProperty.sentAt, String(message.sentAt)),
            ])
        // MQTT-3.1.2-24/25: a packet over the client's Maximum Packet Size is not sent; the
        // message is dropped from the device's queue as if delivered (or it would block it).
        let fits = broker.clientMaximumPacketSize.map { Packet.publish(publish).encoded().count <= Int($0) } ?? true
        if fits && broker.deliveryQoS == .atLeastOnce {
            publish.packetIdentifier = broker.takePacketIdentifier()
            broker.inflight[publish.packetIdentifier] = message.messageID
            publish.dup = !unacknowledged[device, default: []].insert(message.messageID).inserted
        }
        if fits {
            broker.send(.publish(publish))
            counters.messagesDelivered += 1
        }
        if (!fits || broker.deliveryQoS == .atMostOnce) && broker.phase == .online {
            lane.acknowledge(device, messageIDs: [message.messageID]) { _ in }
        }
    }

    /// A PUBACK for a delivery: the device has the message; drop it from its queue and send
    /// more, reading the queue only when it may hold more than was sent: a caught-up connection
    /// is offered each new message as it is stored, so the freed room needs no read (at light
    /// load that read was a transaction per message).
    func handleDeliveryAcknowledgement(_ broker: BrokerConnection, _ packetID: UInt16) {
        guard let login = broker.login, let messageID = broker.inflight.removeValue(forKey: packetID) else { return }
        counters.messagesAcknowledged += 1
        unacknowledged[login.device]?.remove(messageID)
        // Every device ever served would otherwise keep an entry for the server's lifetime.
        if unacknowledged[login.device]?.isEmpty == true { unacknowledged[login.device] = nil }
        // Handed over at once: the lane gathers acknowledgements as suits its store.
        lane.acknowledge(login.device, messageIDs: [messageID]) { _ in }
        if !broker.caughtUp { pump(broker) }
    }
}

extension BrokerConnection {
    /// The next packet identifier not in flight (1...65535).
    func takePacketIdentifier() -> UInt16 {
        repeat {
            nextPacketID = nextPacketID == .max ? 1 : nextPacketID + 1
        } while inflight[nextPacketID] != nil
        return nextPacketID
    }
}
