import IMChaos
import Synchronization

/// Counts the proxy's random faults and its cuts as they come (on the proxy's thread).
final class FaultTally: Sendable {
    private struct State {
        var faults: [FaultKind: Int] = [:]
        var cuts = 0
    }

    private let state = Mutex(State())

    func record(_ event: ProxyEvent) {
        state.withLock { state in
            switch event {
            case .fault(let fault) where fault.origin == .random: state.faults[fault.fault.kind, default: 0] += 1
            case .fault: break
            case .cut: state.cuts += 1
            }
        }
    }

    /// Faults injected, all kinds together.
    var faultCount: Int { state.withLock { $0.faults.values.reduce(0, +) } }

    /// `delay 35, throttle 36, ...; 30 cuts made`.
    var summary: String {
        state.withLock { state in
            let kinds = FaultKind.allCases.compactMap { kind in state.faults[kind].map { "\(kind.rawValue) \($0)" } }
            return kinds.joined(separator: ", ") + "; \(state.cuts) cuts made"
        }
    }
}
