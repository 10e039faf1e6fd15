import IMTransport
import MQTT
import IMProtocol

/// The live MQTT connection of a session, after CONNACK. Confined to the session actor; its
/// outgoing messages' window is the outbox's (`OutboxLink`), and its server and login time
/// are the session's state (`SessionState.connected`).
final class SessionLink {
    let generation: UInt64
    let connection: Connection
    /// The keep-alive in force (the server's Server Keep Alive, else ours); nil when off.
    let keepAlive: Duration?
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

    init(generation: UInt64, connection: Connection, keepAlive: Duration?, now: Duration) {
        self.generation = generation
        self.connection = connection
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
