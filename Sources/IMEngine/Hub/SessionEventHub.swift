import Synchronization

/// The one ordered stream of every session's events, and the table of their latest snapshots.
///
/// Sessions publish here as they change (status, messages, database, send reports); front
/// ends subscribe and read `snapshot(of:)` / `snapshots` instead of asking session actors.
/// Publishing never waits: each subscriber has a bounded buffer, and a subscriber that falls
/// further behind loses the oldest undelivered events it cannot hold, learning how many
/// from `SessionEvent.droppedBefore`. Delivery is a queue, not a chain of calls, so the
/// stack and memory an event costs do not depend on how many came before it.
public final class SessionEventHub: Sendable {
    private struct State {
        var sequence: UInt64 = 0
        var latest: [SessionID: SessionSnapshot] = [:]
        /// Subscribers to every session's events.
        var subscribers: [ObjectIdentifier: SessionEventSubscription] = [:]
        /// Subscribers to one session's events (its handlers and streams), found without a scan.
        var sessionSubscribers: [SessionID: [ObjectIdentifier: SessionEventSubscription]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    /// Records `kind` for the session of `snapshot` and hands it to every subscriber.
    ///
    /// The sequence number is given and the subscribers fed under one lock, so every
    /// subscriber sees the events of all sessions in the same order.
    func publish(_ kind: SessionEvent.Kind, _ snapshot: SessionSnapshot) {
        state.withLock { state in
            if case .closed = kind {
                state.latest[snapshot.id] = nil
            } else {
                state.latest[snapshot.id] = snapshot
            }
            Self.deliver(kind, snapshot, &state)
        }
    }

    /// Records `kind` for session `id` with the snapshot it last published, under the same
    /// lock, so the event sits in order after that snapshot's own event. For events raised
    /// outside the session actor (`SessionInbox`); dropped once the session has closed.
    func publish(_ kind: SessionEvent.Kind, latestOf id: SessionID) {
        state.withLock { state in
            guard let snapshot = state.latest[id] else { return }
            Self.deliver(kind, snapshot, &state)
        }
    }

    /// Numbers the event and hands it to every subscriber, under the caller's lock.
    private static func deliver(_ kind: SessionEvent.Kind, _ snapshot: SessionSnapshot, _ state: inout State) {
        state.sequence += 1
        let event = SessionEvent(sequence: state.sequence, kind: kind, snapshot: snapshot, at: .now)
        for subscriber in state.subscribers.values { subscriber.enqueue(event) }
        if let own = state.sessionSubscribers[snapshot.id] {
            for subscriber in own.values { subscriber.enqueue(event) }
        }
    }

    /// How many subscriptions are open, to every session's events and to one's (for
    /// diagnostics: each holds a buffer and is fed at every publish).
    public var subscriptionCount: Int {
        state.withLock { state in state.subscribers.count + state.sessionSubscribers.values.reduce(0) { $0 + $1.count } }
    }

    /// A new subscription to every event published from now on, or to one session's.
    ///
    /// - Parameter limit: how many undelivered events it holds before dropping the oldest.
    public func subscribe(limit: Int = 100_000, session: SessionID? = nil) -> SessionEventSubscription {
        let subscription = SessionEventSubscription(limit: limit, session: session) { [weak self] subscription in
            self?.unsubscribe(subscription)
        }
        state.withLock { state in
            if let session {
                state.sessionSubscribers[session, default: [:]][ObjectIdentifier(subscription)] = subscription
            } else {
                state.subscribers[ObjectIdentifier(subscription)] = subscription
            }
        }
        return subscription
    }

    private func unsubscribe(_ subscription: SessionEventSubscription) {
        let key = ObjectIdentifier(subscription)
        state.withLock { state in
            guard let session = subscription.session else {
                state.subscribers[key] = nil
                return
            }
            state.sessionSubscribers[session]?[key] = nil
            if state.sessionSubscribers[session]?.isEmpty == true { state.sessionSubscribers[session] = nil }
        }
    }

    /// The latest snapshot of a session that has published and not closed.
    public func snapshot(of id: SessionID) -> SessionSnapshot? {
        state.withLock { $0.latest[id] }
    }

    /// The latest snapshot of every open session that has published.
    public var snapshots: [SessionID: SessionSnapshot] {
        state.withLock { $0.latest }
    }

    /// The sequence number of the newest event (0 before the first).
    public var lastSequence: UInt64 {
        state.withLock { $0.sequence }
    }
}
