import IMEngine
import IMProfiles
import Synchronization

/// The shell's table of its accounts' sessions: each one's latest snapshot, recent status
/// changes, and this run's events. Any thread may read it; the event router writes it.
///
/// `status`, `wait` and the prompt read here rather than asking the session actors, so a
/// row is one snapshot and they see exactly what was printed, in the order it was printed.
/// Every operation costs the same whatever the number of accounts.
public final class SessionBook: Sendable {
    struct Entry {
        var snapshot: SessionSnapshot?
        var changes: [StatusChange] = []
        /// How many changes were ever recorded (`changes` keeps only the latest).
        var sequence = 0
        /// How many times the account's database was recreated, and how many of those an
        /// `expect ACCOUNT database recreated` claimed.
        var recreations = (found: 0, claimed: 0)
        var status: ConnectionStatus { snapshot?.status ?? .unknown }
    }

    struct Counts {
        var connected = 0
        var sessions = 0
    }

    struct State {
        var entries: [AccountReference: Entry] = [:]
        var counts: [String: Counts] = [:]
        var journal = RingBuffer<ShellEvent>(capacity: SessionBook.journalLimit)
        var onChange: (@Sendable () -> Void)?
        /// The streams of `watch(_:)`, by number: each wakes on changes to its accounts.
        var watchers: [Int: (accounts: Set<AccountReference>, continuation: AsyncStream<AccountReference>.Continuation)] = [:]
        var nextWatcher = 0

        /// The streams to wake for a change to `account`.
        func watching(_ account: AccountReference) -> [AsyncStream<AccountReference>.Continuation] {
            watchers.values.compactMap { $0.accounts.contains(account) ? $0.continuation : nil }
        }
    }

    /// How many status changes per account, and events in all, are kept.
    static let changeLimit = 200
    static let journalLimit = 1000

    private let state = Mutex(State())
    /// What each account received in this run, for `expect`.
    let received = ReceivedMessages()

    public init() {}

    /// Runs `handler` (on the reporting thread) after every change of a status.
    public func onChange(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onChange = handler }
    }

    /// Starts tracking `account`, which now has a session (status unknown until it reports).
    func open(_ account: AccountReference) {
        state.withLock { state in
            guard state.entries[account] == nil else { return }
            state.entries[account] = Entry()
            state.counts[account.profile ?? "", default: Counts()].sessions += 1
        }
    }

    /// Records an event with the snapshot it came with; a status change is kept in the account's changes.
    func record(_ event: ShellEvent, snapshot: SessionSnapshot) {
        // Before the watchers wake: an expectation woken for the message finds it.
        if case .message(let message) = event.kind, message.direction == .incoming { received.append(message, for: event.account) }
        let (handler, watchers) = state.withLock { state -> ((@Sendable () -> Void)?, [AsyncStream<AccountReference>.Continuation]) in
            state.journal.append(event)
            let before = state.entries[event.account]?.status
            state.set(event.account, snapshot: snapshot)
            if case .databaseProblem(isRecreated: true, _, _) = event.kind { state.entries[event.account]?.recreations.found += 1 }
            guard case .status(let change) = event.kind else {
                return (before == snapshot.status ? nil : state.onChange, state.watching(event.account))
            }
            state.entries[event.account]?.append(change)
            return (state.onChange, state.watching(event.account))
        }
        for watcher in watchers { watcher.yield(event.account) }
        handler?()
    }

    /// Takes `snapshot` as the account's latest, after events were missed.
    func update(_ account: AccountReference, snapshot: SessionSnapshot) {
        let (handler, watchers) = state.withLock { state in
            state.set(account, snapshot: snapshot)
            return (state.onChange, state.watching(account))
        }
        for watcher in watchers { watcher.yield(account) }
        handler?()
    }

    /// Claims one recreation of the account's database not claimed before; false when there is none.
    func claimRecreation(of account: AccountReference) -> Bool {
        state.withLock { state in
            guard let entry = state.entries[account], entry.recreations.claimed < entry.recreations.found else { return false }
            state.entries[account]?.recreations.claimed += 1
            return true
        }
    }

    /// A stream of the accounts among `accounts` as the book records a change to each (one
    /// element per change), and `stop`, which ends it; it ends too when the task reading it
    /// is cancelled. `wait` awaits it rather than polling, and looks again only at the
    /// account that changed.
    func watch(_ accounts: Set<AccountReference>) -> (changes: AsyncStream<AccountReference>, stop: @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: AccountReference.self)
        let number = state.withLock { state in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = (accounts, continuation)
            return state.nextWatcher
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.watchers.removeValue(forKey: number) } }
        return (stream, { continuation.finish() })
    }

    /// `watch(_:)` that also ends once `seconds` have passed, as `wait` and `expect` need.
    func watch(_ accounts: Set<AccountReference>, for seconds: Double) -> (changes: AsyncStream<AccountReference>, stop: @Sendable () -> Void) {
        let (changes, stop) = watch(accounts)
        let timer = Task {
            try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            stop()
        }
        return (changes, {
            timer.cancel()
            stop()
        })
    }

    /// The account's latest snapshot; nil before its session first reported.
    public func snapshot(of account: AccountReference) -> SessionSnapshot? {
        state.withLock { $0.entries[account]?.snapshot }
    }

    /// The account's latest status; `unknown` when it has no session.
    public func status(of account: AccountReference) -> ConnectionStatus {
        state.withLock { $0.entries[account]?.status ?? .unknown }
    }

    /// The latest status change of the account, if any.
    public func lastChange(of account: AccountReference) -> StatusChange? {
        state.withLock { $0.entries[account]?.snapshot?.lastChange }
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
            return entry.status == status || entry.changes(since: mark).contains { $0.status == status }
        }
    }

    /// The changes of the account recorded after `mark`, oldest first (at most the latest kept).
    func changes(of account: AccountReference, since mark: Int) -> [StatusChange] {
        state.withLock { $0.entries[account]?.changes(since: mark) ?? [] }
    }

    /// The accounts other than `account` whose snapshot has the user id `user`: the same
    /// user's other devices in this run, each with its status changes.
    func otherDevices(of account: AccountReference, user: String) -> [(account: AccountReference, changes: [StatusChange])] {
        state.withLock { state in
            state.entries.compactMap { reference, entry in
                reference != account && entry.snapshot?.userID == user ? (reference, entry.changes) : nil
            }
        }
    }

    /// The profile's sessions, and how many of them are connected (for the prompt).
    public func counts(profile: String) -> (connected: Int, sessions: Int) {
        state.withLock { state in
            let counts = state.counts[profile] ?? Counts()
            return (counts.connected, counts.sessions)
        }
    }

    /// This run's latest events, oldest first.
    func journal(limit: Int) -> [ShellEvent] {
        state.withLock { Array($0.journal.elements.suffix(limit)) }
    }
}

extension SessionBook.State {
    /// Replaces the account's snapshot, keeping the profile's connected count in step.
    mutating func set(_ account: AccountReference, snapshot: SessionSnapshot) {
        let profile = account.profile ?? ""
        if entries[account] == nil {
            entries[account] = SessionBook.Entry()
            counts[profile, default: SessionBook.Counts()].sessions += 1
        }
        let wasConnected = entries[account]?.status == .connected
        entries[account]?.snapshot = snapshot
        let isConnected = snapshot.status == .connected
        if wasConnected != isConnected { counts[profile, default: SessionBook.Counts()].connected += isConnected ? 1 : -1 }
    }
}

extension SessionBook.Entry {
    func changes(since mark: Int) -> [StatusChange] {
        Array(changes.suffix(max(0, min(sequence - mark, changes.count))))
    }

    mutating func append(_ change: StatusChange) {
        changes.append(change)
        if changes.count > SessionBook.changeLimit * 2 { changes.removeFirst(changes.count - SessionBook.changeLimit) }
        sequence += 1
    }
}
