import IMEngine
import IMProfiles

/// Something a session reported on its own: a status change or a message received.
public struct ShellEvent: Sendable {
    public enum Kind: Sendable {
        case status(StatusChange)
        case message(StoredMessage)
    }

    /// The account, always with its profile.
    public var account: AccountReference
    public var kind: Kind

    public init(account: AccountReference, kind: Kind) {
        self.account = account
        self.kind = kind
    }

    /// Milliseconds since the epoch: when the status changed, or when the message was sent.
    public var at: Int64 {
        switch kind {
        case .status(let change): return change.at
        case .message(let message): return message.sentAt
        }
    }
}
