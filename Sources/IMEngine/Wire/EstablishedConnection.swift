import IMTransport
import MQTT
import IMProtocol

/// A connection the server accepted: CONNACK 0x00 read, later frames not yet.
struct EstablishedConnection: Sendable {
    let connection: Connection
    /// The rest of the connection's frames, after CONNACK.
    let frames: InboundFrames
    let connack: ConnAck
    let server: ServerAddress
    /// Whether the server was reached by following a redirect.
    let viaRedirect: Bool

    /// Leaves a connection nobody will use: a normal DISCONNECT, then a graceful close.
    func abandon() {
        let bytes = Packet.disconnect(Disconnect()).encoded()
        let connection = self.connection
        if !connection.loop.execute({ _ = try? connection.send(bytes); connection.close() }) {
            connection.close()
        }
    }
}

/// What one connection attempt came to.
enum AttemptOutcome: Sendable {
    case connected(EstablishedConnection)
    /// `unreachable` says no server answered at the MQTT level (only transport failures).
    case failed(SessionStateMachine.Failure, unreachable: Bool)

    func abandon() {
        if case .connected(let established) = self { established.abandon() }
    }
}
