import IMProtocol
import MQTT

extension BrokerCore {
    /// The will of `connect` as the broker will send it, or the CONNACK refusal it deserves: a
    /// will is a message like any other, so it must be one the client may publish.
    func checkWill(_ connect: Connect, userID: String) -> Result<WillMessage?, WillMessage.Refusal> {
        guard let will = connect.will else { return .success(nil) }
        // We announce Retain Available 0 and Maximum QoS 1 (MQTT-3.2.2-13, -12).
        guard !will.retain else { return .failure(WillMessage.Refusal(.retainNotSupported, "will retain is not supported")) }
        guard will.qos != .exactlyOnce else { return .failure(WillMessage.Refusal(.qosNotSupported, "will QoS 2 is not supported")) }
        guard case .send(let recipient)? = IMTopic(will.topic) else {
            return .failure(WillMessage.Refusal(.notAuthorized, "a will goes to im/send/<user> only"))
        }
        guard let message = try? TextMessage.decode(will.payload) else {
            return .failure(WillMessage.Refusal(.payloadFormatInvalid, "a will's payload is a text message (contract section 5)"))
        }
        if let from = message.from, from != userID {
            return .failure(WillMessage.Refusal(.notAuthorized, "a will is sent as its client's user"))
        }
        let delay = min(will.properties.willDelayInterval ?? 0, connect.properties.sessionExpiryInterval ?? 0)
        return .success(WillMessage(recipient: recipient, cid: message.cid, text: message.text, delay: .seconds(Int(delay))))
    }

    /// The connection of `broker` ended: sends its will, at once or after its delay, unless it
    /// ended with DISCONNECT 0x00, by an administrative action or the server's shutdown (those
    /// clear `broker.will` first), or the same device is online again (a takeover).
    func connectionEndedWithWill(_ broker: BrokerConnection) {
        // Only a connection that went online still has a will here.
        guard let login = broker.login, !shuttingDown, let will = broker.takeWill() else { return }
        let device = login.device
        guard will.delay > .zero else { return sendWill(will, login: login) }
        let key = UserKey(appKey: login.appKey, userID: login.userID)
        if online.connections(of: key).contains(where: { $0.login?.deviceID == login.deviceID }) { return }
        if let earlier = pendingWills.removeValue(forKey: device) { loop.cancelTimer(earlier) }
        pendingWills[device] = loop.scheduleTimer(after: will.delay) { [weak self] in
            guard let self, pendingWills.removeValue(forKey: device) != nil, !shuttingDown else { return }
            sendWill(will, login: login)
        }
    }

    /// A new connection of `device` came before its previous connection's will was due: that
    /// will is not sent (MQTT-3.1.3-9).
    func cancelPendingWill(_ device: DeviceKey) {
        if let timer = pendingWills.removeValue(forKey: device) { loop.cancelTimer(timer) }
    }

    /// Stores the will as the client's message to its recipient and delivers it as any other
    /// (within the sender's quota: past it, the will is dropped).
    private func sendWill(_ will: WillMessage, login: BrokerConnection.Login) {
        let message = NewMessage(appKey: login.appKey, from: login.userID, to: [will.recipient], cid: will.cid,
                                 text: will.text, sentAt: clock.wallMilliseconds())
        let quota = apps[login.appKey]?.queueQuota ?? QueueQuota()
        store(message, quota: quota) { _ in }
    }
}
