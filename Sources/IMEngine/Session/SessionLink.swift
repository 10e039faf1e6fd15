import IMTransport
import MQTT
import IMProtocol

/// The live MQTT connection of a session, after CONNACK. Confined to the session actor; its
/// outgoing messages' window is the outbox's (`OutboxLink`).
final class SessionLink {
    let generation: UInt64
    let connection: Connection
    let server: ServerAddress
    /// The keep-alive in force (the server's Server Keep Alive, else ours); nil when off.
    let keepAlive: Duration?
    /// When the server accepted the login (ms since the epoch).
    let connectedAt: Int64
    /// Clock times of the last packet sent and received, for the heartbeat.
    var lastSent: Duration
    var lastReceived: Duration
    /// When a PINGREQ went out with nothing received since.
    var pingSentAt: Duration?
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

    init(generation: UInt64, connection: Connection, server: ServerAddress, keepAlive: Duration?, now: Duration, connectedAt: Int64 = 0) {
        self.connectedAt = connectedAt
        self.generation = generation
        self.connection = connection
        self.server = server
        self.keepAlive = keepAlive
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
