import IMProtocol
import MQTT

/// The packets a session sends, built as contract sections 1 and 5 say.
enum SessionPackets {
    /// CONNECT: device id, app key and token; resume the session (clean start 0); IM properties.
    static func connect(
        appKey: String, deviceID: String, token: String, parameters: ConnectParameters, isReconnection: Bool
    ) -> Connect {
        var properties: Properties = [
            .sessionExpiryInterval(parameters.sessionExpiry),
            .userProperty(IMUserProperty.platform, parameters.platform.rawValue),
        ]
        if isReconnection { properties.append(.userProperty(IMUserProperty.reconnect, IMUserProperty.flagSet)) }
        if parameters.reconnectKickEnable {
            properties.append(.userProperty(IMUserProperty.kickEnable, IMUserProperty.flagSet))
        }
        return Connect(
            clientIdentifier: deviceID, cleanStart: false, keepAlive: UInt16(clamping: parameters.heartbeat),
            userName: appKey, password: Array(token.utf8), properties: properties)
    }

    /// SUBSCRIBE to the inbox, QoS 1: the one subscription the contract allows.
    static func subscribeInbox(packetID: UInt16) -> Subscribe {
        Subscribe(packetIdentifier: packetID,
                  subscriptions: [.init(IMTopic.inboxFilter, options: SubscriptionOptions(qos: .atLeastOnce))])
    }

    /// PUBLISH QoS 1 of an outgoing text message to `im/send/<peer>`.
    static func publish(_ message: StoredMessage, packetID: UInt16, dup: Bool) -> Publish {
        Publish(
            topic: IMTopic.send(to: message.peer).name,
            payload: TextMessage(text: message.text, cid: message.cid ?? "").encoded(),
            qos: .atLeastOnce, packetIdentifier: packetID, dup: dup,
            properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType)])
    }

    /// DISCONNECT 0x00; with `disablePush`, User Property `im-push` `off`: no push
    /// notifications for the device until it logs in again. The session is left alone (no
    /// Session Expiry 0), so a broker keeps the device's messages for the next connection.
    static func disconnect(disablePush: Bool) -> Disconnect {
        var properties: Properties = []
        if disablePush { properties.appendUserProperty(IMUserProperty.push, IMUserProperty.pushOff) }
        return Disconnect(reasonCode: .normalDisconnection, properties: properties)
    }
}
