import IMTransport

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

    init(connection: Connection, receiveMaximum: Int, maximumPacketSize: Int?) {
        self.connection = connection
        self.receiveMaximum = max(1, receiveMaximum)
        self.maximumPacketSize = maximumPacketSize
    }

    var hasRoom: Bool { inFlight.count < receiveMaximum }
}
