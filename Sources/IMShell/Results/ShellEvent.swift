import IMEngine
import IMProfiles
import IMProtocol

/// Something a session reported on its own, as the shell shows it.
public struct ShellEvent: Sendable {
    public enum Kind: Sendable {
        case status(StatusChange)
        case message(StoredMessage)
        /// The local database was recreated (a damaged file moved aside) or could not open.
        case databaseProblem(isRecreated: Bool, movedAside: [String], error: EngineError?)
        /// The output fell this many events behind and they were not shown.
        case gap(Int)
        /// The next connection attempt, its number and when it starts, after a failed one.
        case retry(attempt: Int, delay: Duration, reason: String)
    }

    /// The account, always with its profile.
    public var account: AccountReference
    public var kind: Kind
    /// Milliseconds since the epoch: when the status changed, the message was sent, or the shell heard of it.
    public var at: Int64

    public init(account: AccountReference, kind: Kind, at: Int64? = nil) {
        self.account = account
        self.kind = kind
        switch kind {
        case .status(let change): self.at = change.at
        case .message(let message): self.at = message.sentAt
        case .databaseProblem, .gap, .retry: self.at = at ?? WallClock.milliseconds()
        }
    }

    /// The shell's view of a hub event; nil for the events it does not show (a call starting,
    /// send reports, closing, a resend dropped, a database that opened as it should): the book
    /// has their snapshots.
    init?(account: AccountReference, _ event: SessionEvent) {
        switch event.kind {
        case .status(let change):
            self.init(account: account, kind: .status(change))
        case .message(let message):
            self.init(account: account, kind: .message(message))
        case let .databaseOpened(isRecreated, movedAside, error):
            guard isRecreated || error != nil else { return nil }
            self.init(account: account, kind: .databaseProblem(isRecreated: isRecreated, movedAside: movedAside, error: error))
        case let .retryScheduled(attempt, delay, reason):
            self.init(account: account, kind: .retry(attempt: attempt, delay: delay, reason: reason))
        case .started, .sendReport, .closed, .duplicateDropped:
            return nil
        }
    }
}
