import MQTT

/// A PUBLISH from a client, checked and waiting for its PUBACK: stored first, or refused in its
/// turn (PUBACKs go in the order of their PUBLISHes, MQTT-4.6.0-2, so a refusal waits for the
/// earlier PUBLISHes still being stored).
struct PendingPublish {
    enum Content {
        case store(NewMessage)
        case refuse(ReasonCode)
    }

    var packetIdentifier: UInt16?
    var content: Content

    var message: NewMessage? {
        guard case .store(let message) = content else { return nil }
        return message
    }
}
