import IMTransport
import IMEngine
import IMProfiles

/// One account as `status` and `accounts` show it: its settings and where its session stands.
public struct AccountStatus: Sendable {
    public var account: Account
    /// `unknown` (-1) before the account's first connect in this run.
    public var status: ConnectionStatus
    /// The last change reported, if any.
    public var lastChange: StatusChange?
    /// The user id the server confirmed, else the profile's.
    public var userID: String?
    public var hasSession: Bool
    /// The server of the live connection.
    public var server: String?
    /// How the live connection carries MQTT: `mqtt`, `mqtts`, `ws` or `wss` (the server's URL scheme).
    public var transport: String?
    /// What TLS the live connection runs; nil when not connected or plaintext.
    public var tls: TLSSessionInfo?
    /// The local database file, once opened.
    public var databaseFile: String?
    /// The latest status changes, oldest first (`status ACCOUNT` only).
    public var recentChanges: [StatusChange]
    /// Where the session stands (attempt, next retry, server), from the same snapshot.
    public var state: SessionState?

    public init(
        account: Account, status: ConnectionStatus, lastChange: StatusChange?, userID: String?, hasSession: Bool,
        server: String? = nil, databaseFile: String? = nil, recentChanges: [StatusChange] = []
    ) {
        self.account = account
        self.status = status
        self.lastChange = lastChange
        self.userID = userID
        self.hasSession = hasSession
        self.server = server
        self.databaseFile = databaseFile
        self.recentChanges = recentChanges
    }

    /// The row of `account` from its session's latest snapshot (nil: no session in this run).
    public init(account: Account, snapshot: SessionSnapshot?) {
        self.init(
            account: account, status: snapshot?.status ?? .unknown, lastChange: snapshot?.lastChange,
            userID: snapshot?.userID ?? account.userID, hasSession: snapshot != nil,
            server: snapshot?.server?.description, databaseFile: snapshot?.databaseFile)
        state = snapshot?.state
        tls = snapshot?.tls
        transport = snapshot?.server?.scheme
    }

    /// The error code of the last change, when it carried one.
    public var code: ConnectErrorCode? { lastChange?.code }
}
