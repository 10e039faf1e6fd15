/// The SDK's legacy connect error codes, reported with terminal statuses and failed completions.
public struct ConnectErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The token is not valid for this app key, or is malformed.
    public static let tokenIncorrect = ConnectErrorCode(rawValue: 31004)
    /// The token expired or was invalidated.
    public static let tokenExpired = ConnectErrorCode(rawValue: 31020)
    /// The server kicked this device (admin API or another device's login).
    public static let kickedByOtherClient = ConnectErrorCode(rawValue: 31010)
    /// Reconnection refused: another device is online and this one asked to give way.
    public static let otherDeviceLogin = ConnectErrorCode(rawValue: 31023)
    /// The user is banned.
    public static let userBlocked = ConnectErrorCode(rawValue: 31009)
    /// The app key is blocked, deleted or unknown to the server.
    public static let appBlockedOrDeleted = ConnectErrorCode(rawValue: 31008)
    /// The proxy cannot be reached or refuses.
    public static let proxyUnavailable = ConnectErrorCode(rawValue: 31028)
    /// `connect` was called before the engine was initialized.
    public static let clientNotInitialized = ConnectErrorCode(rawValue: 33001)
    /// The local database cannot be opened, or the user id is not of `[A-Za-z0-9+=_-]{1,64}`.
    public static let databaseError = ConnectErrorCode(rawValue: 33002)
    /// A parameter of the call is invalid.
    public static let invalidParameter = ConnectErrorCode(rawValue: 33003)
    /// The connect call's timeout passed before the first connection.
    public static let connectTimeout = ConnectErrorCode(rawValue: 34006)
    /// TLS cannot work as configured: the server's certificate fails verification or the pin,
    /// a CA, certificate or key file is unusable, or the port does not speak TLS (or speaks
    /// it behind mqtt://). Retrying cannot help; the detail names the cause.
    public static let tlsFailure = ConnectErrorCode(rawValue: 34020)
    /// A `ws://` or `wss://` endpoint that cannot carry MQTT as configured: it answers the
    /// upgrade with an HTTP client error (a wrong path, not a WebSocket endpoint), chooses
    /// another subprotocol than `mqtt`, or breaks the handshake. Retrying cannot help.
    public static let webSocketFailure = ConnectErrorCode(rawValue: 34021)

    /// The SDK's constant name for the code, such as `RC_CONN_TOKEN_INCORRECT`.
    public var name: String {
        switch self {
        case .tokenIncorrect: return "RC_CONN_TOKEN_INCORRECT"
        case .tokenExpired: return "RC_CONN_TOKEN_EXPIRE"
        case .kickedByOtherClient: return "RC_CONN_KICKED_BY_OTHER_CLIENT"
        case .otherDeviceLogin: return "RC_CONN_OTHER_DEVICE_LOGIN"
        case .userBlocked: return "RC_CONN_USER_BLOCKED"
        case .appBlockedOrDeleted: return "RC_CONN_APP_BLOCKED_OR_DELETED"
        case .proxyUnavailable: return "RC_CONN_PROXY_UNAVAILABLE"
        case .clientNotInitialized: return "RC_CLIENT_NOT_INIT"
        case .databaseError: return "DATABASE_ERROR"
        case .invalidParameter: return "RC_INVALID_PARAMETER"
        case .connectTimeout: return "RC_CONNECT_TIMEOUT"
        case .tlsFailure: return "RC_CONN_TLS_FAILURE"
        case .webSocketFailure: return "RC_CONN_WEBSOCKET_FAILURE"
        default: return "code \(rawValue)"
        }
    }

    public var description: String { "\(rawValue) \(name)" }
}
