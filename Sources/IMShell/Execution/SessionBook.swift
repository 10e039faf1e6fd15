import IMEngine
import IMProfiles
import Synchronization

/// What the shell knows of each account's session from its reports: status, recent changes,
/// and this run's events. Any thread may read it; the session handlers write it.
///
/// `wait` and the prompt read statuses here rather than asking the session actors, so they
/// see exactly what was printed, in the order it was printed.
public final class SessionBook: Sendable {
    struct Entry {
        var status = ConnectionStatus.unknown
        var changes: [StatusChange] = []
        /// How many changes were ever recorded (`changes` keeps only the latest).
        var sequence = 0
    }

    struct State {
        var entries: [AccountReference: Entry] = [:]
        var journal: [ShellEvent] = []
        var onChange: (@Sendable () -> Void)?
    }

    /// How many status changes per account, and events in all, are kept.
    static let changeLimit = 200
    static let journalLimit = 1000

    private let state = Mutex(State())

    public init() {}

    /// Runs `handler` (on the reporting thread) after every change of a status.
    public func onChange(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onChange = handler }
    }

    /// Starts tracking `account`, which now has a session (status unknown until it reports).
    func open(_ account: AccountReference) {
        state.withLock { state in
            if state.entries[account] == nil { state.entries[account] = Entry() }
        }
    }

    /// Records an event; a status change also updates the account's status.
    func record(_ event: ShellEvent) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            state.journal.append(event)
            if state.journal.count > Self.journalLimit { state.journal.removeFirst(state.journal.count - Self.journalLimit) }
            guard case .status(let change) = event.kind else { return nil }
            var entry = state.entries[event.account] ?? Entry()
            entry.status = change.status
            entry.changes.append(change)
            if entry.changes.count > Self.changeLimit { entry.changes.removeFirst(entry.changes.count - Self.changeLimit) }
            entry.sequence += 1
            state.entries[event.account] = entry
            return state.onChange
        }
        handler?()
    }

    /// The account's latest status; `unknown` when it has no session.
    public func status(of account: AccountReference) -> ConnectionStatus {
        state.withLock { $0.entries[account]?.status ?? .unknown }
    }

    /// The latest status change of the account, if any.
    public func lastChange(of account: AccountReference) -> StatusChange? {
        state.withLock { $0.entries[account]?.changes.last }
    }

    /// The latest changes of the account, oldest first.
    func changes(of account: AccountReference, limit: Int) -> [StatusChange] {
        state.withLock { Array(($0.entries[account]?.changes ?? []).suffix(limit)) }
    }

    /// A mark to pass to `reached(_:since:)`.
    func mark(_ account: AccountReference) -> Int {
        state.withLock { $0.entries[account]?.sequence ?? 0 }
    }

    /// Whether the account is in `status`, or passed through it after `mark`.
    func reached(_ status: ConnectionStatus, _ account: AccountReference, since mark: Int) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[account] else { return status == .unknown }
            if entry.status == status { return true }
            let newer = min(entry.sequence - mark, entry.changes.count)
            return entry.changes.suffix(max(0, newer)).contains { $0.status == status }
        }
    }

    /// The profile's sessions, and how many of them are connected (for the prompt).
    public func counts(profile: String) -> (connected: Int, sessions: Int) {
        state.withLock { state in
            let entries = state.entries.filter { $0.key.profile == profile }
            return (entries.values.count { $0.status == .connected }, entries.count)
        }
    }

    /// This run's latest events, oldest first.
    func journal(limit: Int) -> [ShellEvent] {
        state.withLock { Array($0.journal.suffix(limit)) }
    }
}
