/// One status change of a session, as kept in its local database.
public struct ConnectionLogEntry: Sendable, Equatable {
    /// Milliseconds since the epoch.
    public var at: Int64
    public var status: ConnectionStatus
    public var code: ConnectErrorCode?
    public var detail: String

    public init(at: Int64, status: ConnectionStatus, code: ConnectErrorCode?, detail: String) {
        self.at = at
        self.status = status
        self.code = code
        self.detail = detail
    }
}
