import IMProtocol

/// The session settings of an account: timeout, kick policy, heartbeat, platform, jitter,
/// background grace.
///
/// A profile's `defaults` are `builtIn` overridden by the fields its `defaults` object sets;
/// an account's effective settings are its own fields over its profile's `defaults`.
public struct SessionSettings: Sendable, Hashable {
    /// Seconds the first connection of a `connect` may take; 0 retries until connected.
    public var timeout: Int
    /// Whether a reconnection gives way to another device online (`im-kick-enable`).
    public var reconnectKickEnable: Bool
    /// Keep Alive, in seconds (1...3600).
    public var heartbeat: Int
    public var platform: Platform
    /// The fraction (0...1) by which each reconnection wait may vary either way.
    public var jitter: Double
    /// Seconds in the background before the session disconnects with status suspend (13).
    public var backgroundGrace: Int

    public init(
        timeout: Int, reconnectKickEnable: Bool, heartbeat: Int, platform: Platform, jitter: Double, backgroundGrace: Int = 120
    ) {
        self.timeout = timeout
        self.reconnectKickEnable = reconnectKickEnable
        self.heartbeat = heartbeat
        self.platform = platform
        self.jitter = jitter
        self.backgroundGrace = backgroundGrace
    }

    /// What applies when neither the account nor the profile says: a 30 s first-connect timeout
    /// (as in the SDK's example), no kick on reconnection, 30 s heartbeat, mobile, no jitter,
    /// and the SDK's 120 s in the background before suspending.
    public static let builtIn = SessionSettings(
        timeout: 30, reconnectKickEnable: false, heartbeat: 30, platform: .mobile, jitter: 0)

    /// Accepted `timeout` values, in seconds.
    public static let timeoutRange = 0...86_400
    /// Accepted `heartbeat` values, in seconds.
    public static let heartbeatRange = 1...3600
    /// Accepted `backgroundGrace` values, in seconds.
    public static let backgroundGraceRange = 0...86_400
    /// Accepted `jitter` values.
    public static let jitterRange = 0.0...1.0
}
