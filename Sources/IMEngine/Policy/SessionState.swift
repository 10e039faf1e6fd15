import IMProtocol
import IMTransport

/// Where a session stands, with the data that belongs to that state and no other.
///
/// `SessionStateMachine` owns it (it is the machine's phase): every event the session feeds
/// the machine moves it, so the state, the attempt number, the retry time and the server of
/// the live connection cannot drift apart, and a snapshot carries it whole.
public enum SessionState: Sendable, Equatable {
    /// Made, never connected (or the connect call ended before the policy started).
    case idle
    /// The connect call is reading its token or opening the local database.
    case preparing
    /// Connection attempt `attempt` is under way (0 is the first of a connect call).
    case connecting(attempt: Int)
    /// Waiting for the retry timer: attempt `attempt` starts at `retryAt` (ms since the epoch).
    case waiting(attempt: Int, retryAt: Int64)
    /// Logged in to `server` since `since` (ms since the epoch), over TLS when `tls` says how.
    case connected(server: ServerAddress, since: Int64, tls: TLSSessionInfo?)
    /// No network: attempts resume when it is back.
    case paused
    /// Disconnected after the background grace; foreground reconnects.
    case suspended
    /// Disconnected by the app (signOut).
    case signedOut
    /// Ended by a no-retry condition; no further attempt.
    case stopped(SessionTermination)
    /// Closed: the session is done and holds nothing.
    case closed

    /// A short name for the state, for tables and JSON.
    public var name: String {
        switch self {
        case .idle: return "idle"
        case .preparing: return "preparing"
        case .connecting: return "connecting"
        case .waiting: return "waiting"
        case .connected: return "connected"
        case .paused: return "paused"
        case .suspended: return "suspended"
        case .signedOut: return "signedOut"
        case .stopped: return "stopped"
        case .closed: return "closed"
        }
    }

    /// Whether a connection is wanted (the session is connecting, connected or waiting to).
    public var isActive: Bool {
        switch self {
        case .preparing, .connecting, .waiting, .connected, .paused, .suspended: return true
        case .idle, .signedOut, .stopped, .closed: return false
        }
    }

    /// An attempt is under way or a connection is up: there is a connection to close.
    public var isOpen: Bool {
        switch self {
        case .connecting, .connected: return true
        default: return false
        }
    }
}
