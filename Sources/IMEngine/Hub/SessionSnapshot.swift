import IMProtocol
import IMTransport

/// Everything a front end shows of one session, taken at one moment.
///
/// Immutable: the session makes a new one for every event it publishes, and the event hub
/// keeps the latest per session, so reading a status never waits for the session actor.
public struct SessionSnapshot: Sendable, Equatable {
    public let id: SessionID
    /// The name the session was made with (`ConnectParameters.label`), for front ends.
    public let label: String
    public let state: SessionState
    /// The status the SDK's listener would report now (`unknown` before the first change).
    public let status: ConnectionStatus
    /// The latest status change, with its error code and detail.
    public let lastChange: StatusChange?
    /// How many status changes the session has reported.
    public let changeCount: Int
    /// The server's user id once connected, else the local one.
    public let userID: String?
    /// The local database file, once open.
    public let databaseFile: String?

    public init(
        id: SessionID, label: String, state: SessionState, status: ConnectionStatus, lastChange: StatusChange?,
        changeCount: Int, userID: String?, databaseFile: String?
    ) {
        self.id = id
        self.label = label
        self.state = state
        self.status = status
        self.lastChange = lastChange
        self.changeCount = changeCount
        self.userID = userID
        self.databaseFile = databaseFile
    }

    /// The error code of the latest change, when it carried one.
    public var code: ConnectErrorCode? { lastChange?.code }

    /// The server of the live connection, if connected.
    public var server: ServerAddress? {
        if case .connected(let server, _, _) = state { return server }
        return nil
    }

    /// The TLS protocol and cipher of the live connection; nil when not connected over TLS.
    public var tls: TLSSessionInfo? {
        if case .connected(_, _, let tls) = state { return tls }
        return nil
    }
}
