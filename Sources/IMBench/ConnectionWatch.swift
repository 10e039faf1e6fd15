import IMEngine
import Synchronization

/// Which sessions are connected, from their status changes, and when each connected.
///
/// Fed by the engine's event hub, read by a task of its own: every update is quick (one lock,
/// one flag, one instant), so the instants trail the sessions by a queue hop, not a poll.
final class ConnectionWatch: Sendable {
    struct State: Sendable {
        var connected: [Bool]
        var count: Int
        /// Sessions that were seen not connected since `start`.
        var dropped: Set<Int> = []
        /// When sessions connected since `start`, in the order seen.
        var connections: [ContinuousClock.Instant] = []
    }

    private let state: Mutex<State>
    private let subscription = Mutex<SessionEventSubscription?>(nil)

    /// A watch over `sessions` sessions that are all connected now.
    init(connectedSessions sessions: Int) {
        state = Mutex(State(connected: Array(repeating: true, count: sessions), count: sessions))
    }

    /// Session `index` reported `status`.
    func changed(_ index: Int, to status: ConnectionStatus) {
        let now = ContinuousClock.now
        state.withLock { state in
            let isConnected = status == .connected
            guard state.connected[index] != isConnected else { return }
            state.connected[index] = isConnected
            state.count += isConnected ? 1 : -1
            if isConnected {
                state.connections.append(now)
            } else {
                state.dropped.insert(index)
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
                changed(index, to: change.status)
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
