import IMEngine
import Synchronization

/// Which sessions are connected, from their status changes, and when each connected.
///
/// Fed by status handlers that run inside the sessions (the engine's callbacks are immediate),
/// so every update is quick: one lock, one flag, one instant.
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

    /// Watches `sessions`, index by index, until they close.
    func watch(_ sessions: [Session]) async {
        for (index, session) in sessions.enumerated() {
            await session.addStatusHandler(identifier: "imsh-bench") { [self] change in changed(index, to: change.status) }
        }
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
