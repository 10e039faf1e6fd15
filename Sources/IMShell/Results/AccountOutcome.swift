import IMEngine
import IMProfiles

/// How a command went for one account: connect, disconnect, net, wait, the admin commands.
public struct AccountOutcome: Sendable, Equatable {
    /// Always with its profile.
    public var account: AccountReference
    public var ok: Bool
    /// The account's status once the command was done with it; nil without a session.
    public var status: ConnectionStatus?
    /// The error code of a failed connect or terminal status.
    public var code: ConnectErrorCode?
    public var userID: String?
    /// What happened, in words (the failure's reason, or a note such as "already connected").
    public var message: String?

    public init(
        account: AccountReference, ok: Bool, status: ConnectionStatus? = nil, code: ConnectErrorCode? = nil,
        userID: String? = nil, message: String? = nil
    ) {
        self.account = account
        self.ok = ok
        self.status = status
        self.code = code
        self.userID = userID
        self.message = message
    }
}
