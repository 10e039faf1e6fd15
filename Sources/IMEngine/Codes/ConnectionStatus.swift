/// A session's connection status, with the raw values of the SDK's status listener.
///
/// A struct rather than an enum so that a value from a newer peer or log survives as itself.
public struct ConnectionStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let unknown = ConnectionStatus(rawValue: -1)
    public static let connected = ConnectionStatus(rawValue: 0)
    /// The device has no network; attempts pause until it is back.
    public static let networkUnavailable = ConnectionStatus(rawValue: 1)
    /// Another device of the user took over (or the server kicked this one); no retry.
    public static let kickedOfflineByOtherClient = ConnectionStatus(rawValue: 6)
    public static let connecting = ConnectionStatus(rawValue: 10)
    /// Not connected, typically after a refusal with an error code (app blocked or unknown).
    public static let unconnected = ConnectionStatus(rawValue: 11)
    /// The app disconnected on purpose.
    public static let signOut = ConnectionStatus(rawValue: 12)
    /// Disconnected after too long in the background; foreground reconnects.
    public static let suspend = ConnectionStatus(rawValue: 13)
    /// The connect call's timeout passed before the first connection; no more attempts.
    public static let timeout = ConnectionStatus(rawValue: 14)
    /// The token is invalid or expired; get a new one.
    public static let tokenIncorrect = ConnectionStatus(rawValue: 15)
    /// The user is banned.
    public static let disconnException = ConnectionStatus(rawValue: 16)
    public static let proxyUnavailable = ConnectionStatus(rawValue: 17)
    /// The user account was deactivated.
    public static let userAbandon = ConnectionStatus(rawValue: 19)

    /// Every status the engine reports, in raw-value order.
    public static let allKnown: [ConnectionStatus] = [
        .unknown, .connected, .networkUnavailable, .kickedOfflineByOtherClient, .connecting, .unconnected,
        .signOut, .suspend, .timeout, .tokenIncorrect, .disconnException, .proxyUnavailable, .userAbandon,
    ]

    /// The listener's name for the status, such as `kickedOfflineByOtherClient`.
    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .connected: return "connected"
        case .networkUnavailable: return "networkUnavailable"
        case .kickedOfflineByOtherClient: return "kickedOfflineByOtherClient"
        case .connecting: return "connecting"
        case .unconnected: return "unconnected"
        case .signOut: return "signOut"
        case .suspend: return "suspend"
        case .timeout: return "timeout"
        case .tokenIncorrect: return "tokenIncorrect"
        case .disconnException: return "disconnException"
        case .proxyUnavailable: return "proxyUnavailable"
        case .userAbandon: return "userAbandon"
        default: return "status\(rawValue)"
        }
    }

    /// Looks a status up by its name, case-insensitively (for the shell's `wait` command).
    public init?(name: String) {
        guard let found = Self.allKnown.first(where: { $0.name.lowercased() == name.lowercased() }) else { return nil }
        self = found
    }

    public var description: String { "\(name) \(rawValue)" }
}
