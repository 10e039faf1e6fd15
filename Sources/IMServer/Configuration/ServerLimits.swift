/// Bounds that keep one client, or many, from taking the server down.
public struct ServerLimits: Sendable, Equatable {
    /// Open MQTT connections at most; beyond it CONNECT gets 0x89 (server busy).
    public var maxConnections = 100_000
    /// The largest MQTT packet accepted, and announced in CONNACK.
    public var maxPacketSize = 256 * 1024
    /// Accepted CONNECTs per second; beyond it CONNECT gets 0x9F. 0 turns the limit off.
    public var connectRate = 20_000
    /// A connection that sends no CONNECT within this time is closed.
    public var connectTimeout: Duration = .seconds(5)
    /// Bytes queued for one slow client before it is dropped.
    public var outgoingBufferLimit = 4 * 1024 * 1024
    /// The largest HTTP request body the server API accepts (413 beyond it).
    public var apiMaxBodySize = 64 * 1024

    public init() {}
}
