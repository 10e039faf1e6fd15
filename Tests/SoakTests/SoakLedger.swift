import IMEngine
import MQTT
import Synchronization

/// Every message the soak sent, and what the server answered, for the checks at the end.
final class SoakLedger: Sendable {
    /// A message as its sender stored it.
    struct Sent: Sendable, Hashable {
        var from: String
        var to: String
        var cid: String
    }

    private struct State {
        var sent: [String: Sent] = [:]
        var acknowledged: Set<String> = []
        var refused: [String: ReasonCode] = [:]
        var sendErrors: [String] = []
    }

    private let state = Mutex(State())

    func sent(_ message: Sent) { state.withLock { $0.sent[message.cid] = message } }

    func sendFailed(_ error: String) { state.withLock { $0.sendErrors.append(error) } }

    /// A PUBACK: success means the server stored the message.
    func report(_ report: SendReport) {
        state.withLock {
            if report.isAccepted {
                $0.acknowledged.insert(report.cid)
            } else {
                $0.refused[report.cid] = report.reasonCode
            }
        }
    }

    var sentCount: Int { state.withLock { $0.sent.count } }

    /// The messages the server acknowledged, by receiver.
    func acknowledgedByReceiver() -> [String: [Sent]] {
        state.withLock { state in
            Dictionary(grouping: state.acknowledged.compactMap { state.sent[$0] }, by: \.to)
        }
    }

    /// Sent messages with no PUBACK success (yet).
    var unacknowledged: [Sent] {
        state.withLock { state in state.sent.values.filter { !state.acknowledged.contains($0.cid) } }
    }

    var acknowledgedCount: Int { state.withLock { $0.acknowledged.count } }
    var refused: [String: ReasonCode] { state.withLock { $0.refused } }
    var sendErrors: [String] { state.withLock { $0.sendErrors } }
}
