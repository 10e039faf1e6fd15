import IMTransport
import MQTT

/// What one connection has of a session's outgoing messages: the server's limits, what is in
/// flight, what waits for room, and what was already published on it.
///
/// A value in `SessionOutbox`'s state, replaced with each connection: a message published on
/// an earlier one goes out again (same packet identifier, DUP) on the next.
struct OutboxLink {
    let connection: Connection
    /// How many QoS 1 PUBLISHes the server takes unacknowledged (CONNACK Receive Maximum,
    /// 65,535 when it says none): MQTT-3.3.4-7 forbids sending more.
    let receiveMaximum: Int
    /// The largest packet the server accepts (CONNACK Maximum Packet Size); nil when it set none.
    let maximumPacketSize: Int?
    /// Messages published on this connection and not yet acknowledged, by client message id.
    var inFlight: Set<String> = []
    /// Messages held back while `inFlight` is full, in the order they were to go out.
    var held: [StoredMessage] = []
    /// Outgoing messages already published on this connection.
    var published: Set<String> = []
    /// Until the messages stored before this connection are read back and published again,
    /// newer ones wait in `held`: a send made just after the CONNACK must not overtake them.
    private(set) var resending = true

    init(connection: Connection, receiveMaximum: Int, maximumPacketSize: Int?) {
        self.connection = connection
        self.receiveMaximum = max(1, receiveMaximum)
        self.maximumPacketSize = maximumPacketSize
    }

    /// What becomes of a message offered to this connection.
    enum Admission {
        /// Already published here, or no packet identifier is free.
        case skipped
        /// Waits for room in the Receive Maximum, or for the resend of older messages.
        case held
        /// The PUBLISH to write.
        case publish([UInt8])
        /// Over the server's Maximum Packet Size: answered at once with this PUBACK, and why.
        case tooLarge(PubAck, String)
    }

    /// Takes `message` into the window (a packet identifier from `window`, kept across
    /// connections) unless it was published here already or there is no room for it.
    mutating func admit(_ message: StoredMessage, window: inout OutgoingWindow) -> Admission {
        guard let cid = message.cid, !published.contains(cid) else { return .skipped }
        guard !resending, inFlight.count < receiveMaximum else {
            if !held.contains(where: { $0.cid == cid }) { held.append(message) }
            return .held
        }
        guard let (id, isResend) = window.packetID(for: cid) else { return .skipped }
        published.insert(cid)
        let bytes = Packet.publish(SessionPackets.publish(message, packetID: id, dup: isResend)).encoded()
        if let limit = maximumPacketSize, bytes.count > limit {
            let why = "as a PUBLISH it is \(bytes.count) bytes, over the server's Maximum Packet Size of \(limit) bytes (0x95)"
            return .tooLarge(PubAck(packetIdentifier: id, reasonCode: .packetTooLarge), why)
        }
        inFlight.insert(cid)
        return .publish(bytes)
    }

    /// Frees the room `cid` took (the server answered it).
    mutating func acknowledge(_ cid: String) {
        inFlight.remove(cid)
    }

    /// The older messages went out again: returns what was held meanwhile, oldest first, to
    /// publish after them.
    mutating func resent() -> [StoredMessage] {
        resending = false
        defer { held = [] }
        return held
    }

    /// The held messages that fit in the room there is now, oldest first.
    mutating func releaseHeld() -> [StoredMessage] {
        guard !resending else { return [] }
        let count = min(held.count, max(0, receiveMaximum - inFlight.count))
        defer { held.removeFirst(count) }
        return Array(held.prefix(count))
    }
}
