import IMProtocol
import IMTransport
import MQTT

/// The wills of the broker's connections: checked at CONNECT, sent when a connection that went
/// online ends abnormally, at once or after their delay. A part of `BrokerCore`.
final class Wills {
    private unowned let core: BrokerCore
    /// Wills waiting out their delay, by the device whose connection left them.
    private var delayed: [DeviceKey: TimerID] = [:]

    init(core: BrokerCore) {
        self.core = core
    }

    /// The will of `connect` as the broker will send it, or the CONNACK refusal it deserves: a
    /// will is a message like any other, so it must be one the client may publish.
    static func check(_ connect: Connect, userID: String) -> Result<WillMessage?, WillMessage.Refusal> {
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
    /// drop the will first), or the same device is online again (a takeover). Only a
    /// connection that went online still has a will here.
    func connectionEnded(_ broker: BrokerConnection) {
        guard let login = broker.login, !core.shuttingDown, let will = broker.takeWill() else { return }
        let device = login.device
        guard will.delay > .zero else { return send(will, login: login) }
        if core.online.connections(of: login.user).contains(where: { $0.login?.deviceID == login.deviceID }) { return }
        cancel(device)
        delayed[device] = core.loop.scheduleTimer(after: will.delay) { [weak self] in
            guard let self, delayed.removeValue(forKey: device) != nil, !core.shuttingDown else { return }
            send(will, login: login)
        }
    }

    /// A new connection of `device` came before its previous connection's will was due: that
    /// will is not sent (MQTT-3.1.3-9).
    func cancel(_ device: DeviceKey) {
        if let timer = delayed.removeValue(forKey: device) { core.loop.cancelTimer(timer) }
    }

    /// Stores the will as the client's message to its recipient and delivers it as any other
    /// (within the sender's quota: past it, the will is dropped).
    private func send(_ will: WillMessage, login: BrokerConnection.Login) {
        let message = NewMessage(appKey: login.appKey, from: login.userID, to: [will.recipient], cid: will.cid,
                                 text: will.text, sentAt: core.clock.wallMilliseconds())
        let quota = core.apps[login.appKey]?.queueQuota ?? QueueQuota()
        core.publishing.store(message, quota: quota) { _ in }
    }
}
