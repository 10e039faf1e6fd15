import IMProtocol
import IMTransport

/// How one session connects: its credentials, device, heartbeat and reconnection settings.
public struct ConnectParameters: Sendable, Equatable {
    /// The login token (MQTT password). When nil, `tokenSource` supplies it at connect.
    public var token: String?
    /// Where fresh tokens come from: at connect when `token` is nil, and once after the
    /// server refuses a token (tokenIncorrect, expired).
    public var tokenSource: TokenSource?
    /// The user id naming the local database; nil reads it from the token (`TokenClaims`).
    public var userID: String?
    /// Bounds the first connection of each `connect` call; nil or <= 0 retries without limit.
    public var timeout: Duration?
    /// `timeout` when it bounds anything: nil for no limit.
    var connectTimeout: Duration? { timeout.flatMap { $0 > .zero ? $0 : nil } }
    /// Asks the server (`im-kick-enable`) not to kick another online device on reconnection.
    public var reconnectKickEnable: Bool
    /// The MQTT Client Identifier: 1-64 of `[A-Za-z0-9_-]`; nil derives one from user and platform.
    public var deviceID: String?
    public var platform: Platform
    /// Keep Alive in seconds, 0-65535; 0 turns the heartbeat off.
    public var heartbeat: Int
    /// A SOCKS5 proxy every connection goes through.
    public var proxy: SOCKS5Proxy?
    /// The fraction (0...1) by which reconnection waits vary, so that many sessions spread out.
    public var jitter: Double
    /// Time in the background before the session disconnects with status suspend.
    public var backgroundGrace: Duration
    /// Session Expiry Interval sent in CONNECT, in seconds (default 7 days).
    public var sessionExpiry: UInt32
    /// A data directory for this session instead of the engine's: give each device of one user
    /// its own, since one database file serves one session at a time.
    public var dataDirectory: String?
    /// What front ends call this session (an account name, say); it appears in every snapshot.
    public var label: String
    /// How `mqtts://` servers are verified (CA, server name, client certificate, pins);
    /// nil verifies against the system trust store with the server's host name.
    public var tls: TLSClientConfiguration?
    /// The servers this session tries instead of the engine's (a web-platform account that
    /// reaches the WebSocket endpoints, say); nil uses the engine's.
    public var servers: [ServerAddress]?

    public init(
        token: String? = nil, tokenSource: TokenSource? = nil, userID: String? = nil, timeout: Duration? = nil,
        reconnectKickEnable: Bool = false, deviceID: String? = nil, platform: Platform = .mobile, heartbeat: Int = 30,
        proxy: SOCKS5Proxy? = nil, jitter: Double = 0, backgroundGrace: Duration = .seconds(120),
        sessionExpiry: UInt32 = 7 * 24 * 3600, dataDirectory: String? = nil, tls: TLSClientConfiguration? = nil,
        label: String = ""
    ) {
        self.token = token
        self.tokenSource = tokenSource
        self.userID = userID
        self.timeout = timeout
        self.reconnectKickEnable = reconnectKickEnable
        self.deviceID = deviceID
        self.platform = platform
        self.heartbeat = heartbeat
        self.proxy = proxy
        self.jitter = jitter
        self.backgroundGrace = backgroundGrace
        self.sessionExpiry = sessionExpiry
        self.dataDirectory = dataDirectory
        self.label = label
        self.tls = tls
    }

    /// Checks what can be checked before anything runs; the error names the parameter (33003).
    func validate() throws(EngineError) {
        if let token, token.isEmpty { throw .invalidParameter("the token is empty") }
        guard token != nil || tokenSource != nil else { throw .invalidParameter("no token and no token source given") }
        if let token, token.utf8.count > TokenClaims.maxTokenLength {
            throw .invalidParameter("the token is longer than \(TokenClaims.maxTokenLength) bytes")
        }
        guard (0...Int(UInt16.max)).contains(heartbeat) else {
            throw .invalidParameter("heartbeat \(heartbeat) is not 0-65535 seconds")
        }
        if let deviceID, !IMIdentifier.isValidDeviceID(deviceID) {
            throw .invalidParameter("device id '\(deviceID)' is not 1-64 characters of A-Z a-z 0-9 _ -")
        }
        guard (0...1).contains(jitter) else { throw .invalidParameter("jitter \(jitter) is not within 0...1") }
        guard backgroundGrace >= .zero else { throw .invalidParameter("the background grace is negative") }
        guard sessionExpiry > 0 else { throw .invalidParameter("the session expiry must be positive") }
        if let dataDirectory, dataDirectory.isEmpty { throw .invalidParameter("the data directory is empty") }
        if let proxy, proxy.host.isEmpty || proxy.port == 0 {
            throw .invalidParameter("the proxy needs a host and a port")
        }
    }

    /// The device id to use for `userID`: the given one, else `<platform>-<user id>` made valid.
    func effectiveDeviceID(userID: String) -> String {
        if let deviceID { return deviceID }
        let cleaned = userID.map { $0 == "+" || $0 == "=" ? "_" : $0 }
        return String("\(platform.rawValue)-\(String(cleaned))".prefix(IMIdentifier.maxLength))
    }
}
