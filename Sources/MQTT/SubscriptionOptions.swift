/// The options byte that follows each topic filter in SUBSCRIBE.
public struct SubscriptionOptions: Hashable, Sendable {
    /// When the server sends retained messages for a new subscription.
    public enum RetainHandling: UInt8, Hashable, Sendable {
        /// Send retained messages at the time of the subscribe (0).
        case sendOnSubscribe = 0
        /// Send them only if the subscription did not exist yet (1).
        case sendOnNewSubscribe = 1
        /// Do not send retained messages (2).
        case doNotSend = 2
    }

    /// The highest QoS the server may use for this subscription.
    public var qos: QoS
    /// Do not send the client its own messages back.
    public var noLocal: Bool
    /// Keep the RETAIN flag as published instead of clearing it.
    public var retainAsPublished: Bool
    public var retainHandling: RetainHandling

    public init(
        qos: QoS = .atLeastOnce,
        noLocal: Bool = false,
        retainAsPublished: Bool = false,
        retainHandling: RetainHandling = .sendOnSubscribe
    ) {
        self.qos = qos
        self.noLocal = noLocal
        self.retainAsPublished = retainAsPublished
        self.retainHandling = retainHandling
    }

    /// Reads the options byte: reserved bits 6-7 set is malformed,
    /// QoS 3 or retain handling 3 a protocol error.
    public init(byte: UInt8) throws(MQTTError) {
        guard byte & 0xC0 == 0 else { throw .malformed("reserved subscription option bits are set") }
        guard let qos = QoS(rawValue: byte & 0x03) else { throw .protocolError("subscription maximum QoS is 3") }
        guard let retainHandling = RetainHandling(rawValue: (byte >> 4) & 0x03) else {
            throw .protocolError("retain handling is 3")
        }
        self.init(qos: qos, noLocal: byte & 0x04 != 0, retainAsPublished: byte & 0x08 != 0, retainHandling: retainHandling)
    }

    /// The options byte.
    public var byte: UInt8 {
        qos.rawValue | (noLocal ? 0x04 : 0) | (retainAsPublished ? 0x08 : 0) | retainHandling.rawValue << 4
    }
}
