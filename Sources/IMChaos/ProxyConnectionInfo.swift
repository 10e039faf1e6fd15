import IMTransport

/// One open connection as `FaultProxy.connections()` shows it.
public struct ProxyConnectionInfo: Sendable, Equatable, CustomStringConvertible {
    /// How far the connection to the server has got.
    public enum Upstream: String, Sendable {
        /// Not asked for yet: the connection was black-holed from its start.
        case none
        case connecting
        case connected
        /// The server's side has closed; the client's has not yet.
        case closed
    }

    public var id: ProxyConnectionID
    /// The client's address.
    public var client: SocketAddress
    public var upstream: Upstream
    public var conditions: LinkConditions
    /// Whether a cut waits for the next packet.
    public var cutPending: Bool
    /// Bytes written to the server and to the client so far.
    public var bytesToServer: Int
    public var bytesToClient: Int
    /// Bytes read and not yet forwarded (delayed, throttled or held), both ways.
    public var heldBytes: Int

    /// `12 127.0.0.1:50312 connected delay 100 sent 1200 received 3400 held 0`.
    public var description: String {
        "\(id) \(client) \(upstream.rawValue) \(conditions)\(cutPending ? ",cut" : "")"
            + " sent \(bytesToServer) received \(bytesToClient) held \(heldBytes)"
    }
}
