import IMTransport
import MQTT
import IMProtocol

/// The live MQTT connection of a session, after CONNACK. Confined to the session actor.
final class SessionLink {
    let generation: UInt64
    let connection: Connection
    let server: ServerAddress
    /// The keep-alive in force (the server's Server Keep Alive, else ours); nil when off.
    let keepAlive: Duration?
    /// The largest packet the server accepts (CONNACK Maximum Packet Size); nil when it set none.
    let maximumPacketSize: Int?
    /// When the server accepted the login (ms since the epoch).
    let connectedAt: Int64
    /// How many QoS 1 PUBLISHes the server takes unacknowledged (CONNACK Receive Maximum,
    /// 65,535 when it says none): MQTT-3.3.4-7 forbids sending more.
    let receiveMaximum: Int
    /// Messages published on this connection and not yet acknowledged, by client message id.
    var inFlight: Set<String> = []
    /// Messages held back while `inFlight` is full, in the order they were to go out.
    var held: [StoredMessage] = []
    /// Clock times of the last packet sent and received, for the heartbeat.
    var lastSent: Duration
    var lastReceived: Duration
    /// When a PINGREQ went out with nothing received since.
    var pingSentAt: Duration?
    /// Outgoing messages already published on this connection.
    var publishedCIDs: Set<String> = []
    /// The packet identifier of the inbox SUBSCRIBE until its SUBACK.
    var subscribeID: UInt16?
    var reader: Task<Void, Never>?
    var heartbeat: Task<Void, Never>?
    /// Takes the PUBLISHes on the loop (see `SessionInbox`); nil without a database.
    var inbox: SessionInbox?

    /// When a packet last arrived, whichever path it took.
    var lastArrival: Duration {
        guard let message = inbox?.lastReceived else { return lastReceived }
        return max(message, lastReceived)
    }

    init(
        generation: UInt64, connection: Connection, server: ServerAddress, keepAlive: Duration?,
        maximumPacketSize: Int? = nil, receiveMaximum: Int = Int(UInt16.max), now: Duration, connectedAt: Int64 = 0
    ) {
        self.connectedAt = connectedAt
        self.receiveMaximum = max(1, receiveMaximum)
        self.generation = generation
        self.connection = connection
        self.server = server
        self.keepAlive = keepAlive
        self.maximumPacketSize = maximumPacketSize
        self.lastSent = now
        self.lastReceived = now
    }

    /// Queues `packet` on the connection's loop; packets go out in the order of these calls.
    func send(_ packet: Packet, at now: Duration) {
        send(encoded: packet.encoded(), at: now)
    }

    /// Queues one packet already encoded.
    func send(encoded bytes: [UInt8], at now: Duration) {
        lastSent = now
        let connection = self.connection
        connection.loop.execute { _ = try? connection.send(bytes) }
    }

    /// Stops reading and the heartbeat, and closes the connection after what is queued.
    func close(_ mode: CloseMode = .graceful) {
        reader?.cancel()
        heartbeat?.cancel()
        connection.close(mode)
    }
}
