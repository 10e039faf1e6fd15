import Foundation
import IMEngine
import IMProfiles
import Synchronization

/// Carries the hub's events to the shell: into the book, then to the front end's output.
///
/// One thread of its own reads the shell's subscription to the hub, so output that blocks
/// (a stalled terminal, a full pipe) blocks this thread only: sessions never wait for it.
/// While it is blocked the subscription buffers up to `bufferLimit` events; past that the
/// oldest are dropped, the book is brought back in step from the hub's snapshots, and the
/// output is told how many it missed. Nothing is lost from the sessions' databases.
public final class EventRouter: Sendable {
    /// What the output receives; a struct, so the closure is read whole from the lock.
    private struct Sink: Sendable {
        let show: @Sendable (ShellEvent) -> Void
    }

    private struct Progress {
        var processed: UInt64 = 0
        var waiters: [(target: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Events held for a blocked output before the oldest are dropped.
    public static let bufferLimit = 100_000

    public let book: SessionBook
    public let hub: SessionEventHub
    private let subscription: SessionEventSubscription
    private let accounts = Mutex<[SessionID: AccountReference]>([:])
    private let sink = Mutex<Sink?>(nil)
    private let muted = Atomic<Bool>(false)
    private let progress = Mutex(Progress())

    public init(book: SessionBook = SessionBook(), hub: SessionEventHub = SessionEventHub()) {
        self.book = book
        self.hub = hub
        subscription = hub.subscribe(limit: Self.bufferLimit)
        let thread = Thread { [subscription, weak self] in
            while let event = subscription.nextBlocking() {
                guard let self else { return }
                self.route(event)
            }
        }
        thread.name = "imsh-events"
        thread.start()
    }

    deinit {
        subscription.cancel()
    }

    /// Sends every event to `show` from now on.
    public func connect(_ show: @escaping @Sendable (ShellEvent) -> Void) {
        sink.withLock { $0 = Sink(show: show) }
    }

    /// Stops printing events (they are still recorded), as when the shell shuts down.
    public func mute() {
        muted.store(true, ordering: .relaxed)
    }

    /// Names the account whose session is `id`, before the session can publish.
    func register(_ id: SessionID, as account: AccountReference) {
        accounts.withLock { $0[id] = account }
        book.open(account)
    }

    /// Returns once every event published so far has been recorded and shown, so that the
    /// events a command caused come before its result.
    func flush() async {
        let target = hub.lastSequence
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = progress.withLock { progress -> Bool in
                if progress.processed >= target { return true }
                progress.waiters.append((target, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    private func route(_ event: SessionEvent) {
        let account = accounts.withLock { map -> AccountReference? in
            if case .closed = event.kind { return map.removeValue(forKey: event.session) }
            return map[event.session]
        }
        if event.droppedBefore > 0 { resynchronize(missed: event.droppedBefore, account: account) }
        if let account, let shown = ShellEvent(account: account, event) {
            book.record(shown, snapshot: event.snapshot)
            show(shown)
        } else if let account {
            // Not shown (a call starting, a send report, ...), but the state it carries is the latest.
            book.update(account, snapshot: event.snapshot)
        }
        finished(event.sequence)
    }

    /// After a gap: the book takes each session's latest snapshot, and the output hears of it.
    private func resynchronize(missed: Int, account: AccountReference?) {
        let known = accounts.withLock { $0 }
        for (id, snapshot) in hub.snapshots {
            if let reference = known[id] { book.update(reference, snapshot: snapshot) }
        }
        if let account { show(ShellEvent(account: account, kind: .gap(missed))) }
    }

    private func show(_ event: ShellEvent) {
        guard !muted.load(ordering: .relaxed), let sink = sink.withLock({ $0 }) else { return }
        sink.show(event)
    }

    private func finished(_ sequence: UInt64) {
        let ready = progress.withLock { progress -> [CheckedContinuation<Void, Never>] in
            progress.processed = sequence
            guard !progress.waiters.isEmpty else { return [] }
            let ready = progress.waiters.filter { $0.target <= sequence }.map(\.continuation)
            progress.waiters.removeAll { $0.target <= sequence }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
