import IMEngine
import Synchronization

/// Which sessions are connected, from their status changes, when each connected, and how long
/// each was away (from leaving `connected` to being `connected` again).
///
/// Fed by the engine's event hub, read by a task of its own: every update is quick (one lock,
/// one flag, one instant), and the instants are the hub's (`SessionEvent.at`), so they do not
/// trail the sessions by the reader's queue.
final class ConnectionWatch: Sendable {
    struct State: Sendable {
        var connected: [Bool]
        var count: Int
        /// Sessions that were seen not connected since `start`.
        var dropped: Set<Int> = []
        /// When sessions connected since `start`, in the order seen.
        var connections: [ContinuousClock.Instant] = []
        /// When each session left `connected`; nil while it is connected.
        var left: [ContinuousClock.Instant?]
        /// Each absence that ended since `start`: from leaving `connected` to `connected` again.
        var away: [Duration] = []
    }

    private let state: Mutex<State>
    private let subscription = Mutex<SessionEventSubscription?>(nil)

    /// A watch over `sessions` sessions that are all connected now.
    init(connectedSessions sessions: Int) {
        state = Mutex(State(
            connected: Array(repeating: true, count: sessions), count: sessions, left: Array(repeating: nil, count: sessions)))
    }

    /// Session `index` reported `status` at `now`.
    func changed(_ index: Int, to status: ConnectionStatus, at now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            let isConnected = status == .connected
            guard state.connected[index] != isConnected else { return }
            state.connected[index] = isConnected
            state.count += isConnected ? 1 : -1
            if isConnected {
                state.connections.append(now)
                if let left = state.left[index] { state.away.append(now - left) }
                state.left[index] = nil
            } else {
                state.dropped.insert(index)
                state.left[index] = now
            }
        }
    }

    var connectedCount: Int { state.withLock { $0.count } }

    var snapshot: State { state.withLock { $0 } }

    /// Watches `sessions`, index by index, through `hub`'s events, until `stop()`.
    func watch(_ sessions: [Session], on hub: SessionEventHub) {
        let subscription = hub.subscribe(limit: max(100_000, sessions.count * 8))
        let indexes = Dictionary(uniqueKeysWithValues: sessions.enumerated().map { ($0.element.id, $0.offset) })
        self.subscription.withLock { $0 = subscription }
        Task { [self] in
            while let event = await subscription.next() {
                guard case .status(let change) = event.kind, let index = indexes[event.session] else { continue }
                changed(index, to: change.status, at: event.at)
            }
        }
    }

    /// Stops watching.
    func stop() {
        subscription.withLock { $0.take() }?.cancel()
    }

    /// The most connections seen within any one second.
    static func peakPerSecond(_ instants: [ContinuousClock.Instant]) -> Int {
        let sorted = instants.sorted()
        var best = 0, first = 0
        for last in sorted.indices {
            while sorted[last] - sorted[first] >= .seconds(1) { first += 1 }
            best = max(best, last - first + 1)
        }
        return best
    }
}
