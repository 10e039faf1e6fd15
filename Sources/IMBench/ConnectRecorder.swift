import IMEngine
import Synchronization

/// What the connect calls of a fleet did: latencies, failures by code, the last success.
///
/// Shared by every connecting task; the counters are read by the progress line meanwhile.
final class ConnectRecorder: Sendable {
    struct State: Sendable {
        var started = 0
        var connected = 0
        var latencies: [Duration] = []
        /// When each session connected, for the sessions-over-time picture.
        var connectedAt: [ContinuousClock.Instant] = []
        var failures: [String: Int] = [:]
        /// Connected sessions by the URL of their server, for sessions given one server each.
        var connectedByServer: [String: Int] = [:]
        var firstStart: ContinuousClock.Instant?
        var lastConnected: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    init(expected: Int) {
        state.withLock { $0.latencies.reserveCapacity(expected) }
    }

    func started(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            state.started += 1
            if state.firstStart == nil { state.firstStart = instant }
        }
    }

    func connected(after latency: Duration, at instant: ContinuousClock.Instant, server: String? = nil) {
        state.withLock { state in
            state.connected += 1
            if let server { state.connectedByServer[server, default: 0] += 1 }
            state.latencies.append(latency)
            state.connectedAt.append(instant)
            state.lastConnected = max(state.lastConnected ?? instant, instant)
        }
    }

    func failed(_ error: EngineError) {
        let key = Self.failureKey(error)
        state.withLock { $0.failures[key, default: 0] += 1 }
    }

    var snapshot: State { state.withLock { $0 } }

    /// `connected/started`, and failures so far.
    func progress(of total: Int) -> String {
        let state = snapshot
        let failed = state.failures.values.reduce(0, +)
        return "\(state.connected)/\(total) connected, \(state.started - state.connected - failed) connecting, \(failed) failed"
    }

    /// The legacy code (`34006 connectTimeout`), else the status, else what the engine said.
    static func failureKey(_ error: EngineError) -> String {
        if let code = error.code { return code.description }
        if let status = error.status { return "status \(status)" }
        return "\(error)"
    }
}
