/// Limits, buffer sizes and framing of one connection.
public struct ConnectionOptions: Sendable {
    /// The largest frame (whole MQTT packet) accepted from the peer; a larger one closes the
    /// connection with a framing error. Memory grows only as bytes arrive, not on the header's word.
    /// Raw framing ignores it: its frames are read chunks.
    public var maximumFrameSize: Int
    /// Once this many bytes are queued, `send` answers `.full` and `isWritable` turns false.
    public var highWaterMark: Int
    /// Once the queue drains to this many bytes, the connection is writable again.
    public var lowWaterMark: Int
    /// More queued bytes than this closes the connection with `outboundBufferOverflow`, so that
    /// a peer that stops reading cannot make the process buffer without end.
    public var outboundLimit: Int
    /// How long a graceful close may take to flush and see the peer close, before it turns abortive.
    public var closeTimeout: Duration
    /// How incoming bytes become frames: MQTT packets, or raw chunks as read.
    public var framing: ConnectionFraming

    public init(
        maximumFrameSize: Int = 268_435_460,
        highWaterMark: Int = 256 * 1024,
        lowWaterMark: Int = 64 * 1024,
        outboundLimit: Int = 4 * 1024 * 1024,
        closeTimeout: Duration = .seconds(5),
        framing: ConnectionFraming = .mqtt
    ) {
        precondition(lowWaterMark <= highWaterMark && highWaterMark <= outboundLimit,
                     "need lowWaterMark <= highWaterMark <= outboundLimit")
        self.maximumFrameSize = maximumFrameSize
        self.highWaterMark = highWaterMark
        self.lowWaterMark = lowWaterMark
        self.outboundLimit = outboundLimit
        self.closeTimeout = closeTimeout
        self.framing = framing
    }
}

/// How to set up an outgoing connection.
public struct ConnectOptions: Sendable {
    /// The time allowed for everything: resolving, connecting to each address, proxy negotiation.
    /// `nil` leaves it to the kernel (minutes).
    public var timeout: Duration?
    /// A SOCKS5 proxy to tunnel through, or nil for a direct connection.
    public var proxy: SOCKS5Proxy?
    /// Limits of the connection once established.
    public var connection: ConnectionOptions
    /// TLS to negotiate (inside the SOCKS5 tunnel, if any) before the connection is handed over.
    public var tls: TLSConnectSettings?
    /// MQTT over WebSocket: the upgrade is made (after TLS, if any) before the connection is handed over.
    public var webSocket: WebSocketSettings?

    public init(
        timeout: Duration? = .seconds(30), proxy: SOCKS5Proxy? = nil, connection: ConnectionOptions = .init(),
        tls: TLSConnectSettings? = nil, webSocket: WebSocketSettings? = nil
    ) {
        self.timeout = timeout
        self.proxy = proxy
        self.connection = connection
        self.tls = tls
        self.webSocket = webSocket
    }
}

/// A SOCKS5 proxy (RFC 1928) to reach the server through, with optional RFC 1929 credentials.
public struct SOCKS5Proxy: Sendable, Equatable {
    /// A user name and password, each 1 to 255 bytes of UTF-8.
    public struct Credentials: Sendable, Equatable {
        public var username: String
        public var password: String

        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    public var host: String
    public var port: UInt16
    /// When set, username/password authentication is offered besides "no authentication".
    public var credentials: Credentials?

    public init(host: String, port: UInt16 = 1080, credentials: Credentials? = nil) {
        self.host = host
        self.port = port
        self.credentials = credentials
    }
}
