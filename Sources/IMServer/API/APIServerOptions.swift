/// How the HTTP server API treats its connections: timeouts, bounds and its clock.
///
/// The body limit is not here: it is `ServerLimits.apiMaxBodySize`, given to `APIServer`.
public struct APIServerOptions: Sendable {
    /// A keep-alive connection with no request under way is closed after this long.
    public var idleTimeout: Duration
    /// A request must arrive whole (head and body) within this time of its first byte, and
    /// the first request within this time of connecting; otherwise 408 and the connection
    /// closes. Slow senders (slowloris) cannot hold a connection open by trickling bytes.
    public var requestTimeout: Duration
    /// A new connection must send its first request head whole within this time, the TLS
    /// handshake included, or it is closed: with 408, or without a word while it is still
    /// handshaking. Idle, trickling or stalled connections go long before `requestTimeout`.
    public var headTimeout: Duration
    /// Open API connections from one peer address at most; beyond it a new connection from
    /// that address gets 503 (over plain HTTP) and is closed at once, so one host cannot use
    /// up `maxConnections`, nor hold descriptors with the connections refused.
    public var maxConnectionsPerAddress: Int
    /// The longest request head (request line plus headers), in bytes; 431 beyond it.
    public var maxHeadBytes: Int
    /// The most header fields in one request; 431 beyond it.
    public var maxHeaderCount: Int
    /// Open API connections at most; beyond it a new connection gets 503 (over plain HTTP)
    /// and is closed at once.
    public var maxConnections: Int
    /// Nonces remembered per app within the replay window; while that many are live,
    /// further requests of the app get 503 (code 1008) with `Retry-After`.
    public var maxNoncesPerApp: Int
    /// How long `APIServer.close()` lets requests under way finish before resetting connections.
    public var shutdownGracePeriod: Duration
    /// The clock request timestamps are checked against (±5 min, on its wall time).
    public var clock: ServerClock

    public init(
        idleTimeout: Duration = .seconds(60),
        requestTimeout: Duration = .seconds(10),
        headTimeout: Duration = .seconds(3),
        maxConnectionsPerAddress: Int = 256,
        maxHeadBytes: Int = 16 * 1024,
        maxHeaderCount: Int = 64,
        maxConnections: Int = 10_000,
        maxNoncesPerApp: Int = 100_000,
        shutdownGracePeriod: Duration = .seconds(10),
        clock: ServerClock = .system
    ) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.headTimeout = headTimeout
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxConnections = maxConnections
        self.maxNoncesPerApp = maxNoncesPerApp
        self.shutdownGracePeriod = shutdownGracePeriod
        self.clock = clock
    }
}
