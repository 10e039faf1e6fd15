import IMEngine
import Synchronization

/// Every message of a messages bench: sent, acknowledged by the server, received and stored by
/// its receiver, and how long that took.
///
/// A message's text carries the monotonic time of its send call (`bench NANOSECONDS`), so the
/// receiving side measures the latency without a lookup. Shared by all the bench's tasks.
final class MessageLedger: Sendable {
    struct State: Sendable {
        var sent = 0
        var sendErrors: [String: Int] = [:]
        var acknowledged = 0
        var refused: [String: Int] = [:]
        var received = 0
        /// Deliveries of a client message id already delivered (the stream's view).
        var redelivered = 0
        var latencies: [Duration] = []
        /// When each of `latencies` was measured (same order), for the per-second pictures.
        var latencyTimes: [ContinuousClock.Instant] = []
        var acknowledgedIDs: Set<String> = []
        var receivedIDs: Set<String> = []
        var firstSend: ContinuousClock.Instant?
        var lastSend: ContinuousClock.Instant?
        var lastReceive: ContinuousClock.Instant?

        /// Acknowledged by the server, never received.
        var lost: Int { acknowledgedIDs.subtracting(receivedIDs).count }
        /// Sent, with neither a PUBACK nor a refusal yet.
        var unanswered: Int { sent - acknowledged - refused.values.reduce(0, +) }
    }

    private let state = Mutex(State())

    init() {}

    static let prefix = "bench "

    /// The text of a message sent now.
    static func text(sentAt nanoseconds: Int64) -> String { prefix + String(nanoseconds) }

    func sendStarted(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            if state.firstSend == nil { state.firstSend = instant }
        }
    }

    func sent(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            state.sent += 1
            state.lastSend = max(state.lastSend ?? instant, instant)
        }
    }

    func sendFailed(_ error: EngineError) {
        let key = error.code?.description ?? "\(error)"
        state.withLock { $0.sendErrors[key, default: 0] += 1 }
    }

    func report(_ report: SendReport) {
        state.withLock { state in
            if report.isAccepted {
                state.acknowledged += 1
                state.acknowledgedIDs.insert(report.cid)
            } else {
                state.refused["\(report.reasonCode)", default: 0] += 1
            }
        }
    }

    /// `message` was stored at `instant` (its hub event's time).
    func received(_ message: StoredMessage, at instant: ContinuousClock.Instant) {
        let now = BenchClock.nanoseconds(at: instant)
        let sentAt = message.text.hasPrefix(Self.prefix) ? Int64(message.text.dropFirst(Self.prefix.count)) : nil
        state.withLock { state in
            state.received += 1
            state.lastReceive = instant
            if let cid = message.cid, !state.receivedIDs.insert(cid).inserted { state.redelivered += 1 }
            if let sentAt {
                state.latencies.append(.nanoseconds(now - sentAt))
                state.latencyTimes.append(instant)
            }
        }
    }

    var snapshot: State { state.withLock { $0 } }

    /// Every message sent has its answer, and every acknowledged one was received.
    var isSettled: Bool {
        state.withLock { $0.unanswered == 0 && $0.receivedIDs.isSuperset(of: $0.acknowledgedIDs) }
    }

    /// For the progress line.
    var progress: String {
        let state = snapshot
        return "\(state.sent) sent, \(state.acknowledged) acknowledged, \(state.received) received"
    }
}
