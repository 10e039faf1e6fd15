import IMProtocol
import IMTransport

/// Where a session stands, with the data that belongs to that state and no other.
///
/// Built by the session from its policy (`SessionStateMachine`) and its live link each time
/// it publishes, so a front end never combines a status from one moment with an attempt
/// number or server from another.
public enum SessionState: Sendable, Equatable {
    /// Made, never connected (or the connect call was refused before it started).
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
}
