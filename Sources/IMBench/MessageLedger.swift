import IMEngine
import Synchronization

/// Every message of a messages bench: sent, acknowledged by the server, received and stored by
/// its receiver, and how long that took.
///
/// A message's text carries the monotonic time of its send call (`bench NANOSECONDS`), so the
/// receiving side measures the latency without a lookup. Shared by all the bench's tasks.
final class MessageLedger: Sendable {
    struct State: Sendable {
        /// Send calls made; `sent` and `sendErrors` count those that returned.
        var started = 0
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
        /// Send calls that did not fail, with neither a PUBACK nor a refusal yet (those not
        /// returned yet included).
        var unanswered: Int { started - failedCalls - acknowledged - refusals }
        /// Send calls that have not returned yet.
        var inFlight: Int { started - sent - failedCalls }
        /// Answers (PUBACKs, refusals, failed calls) and receipts: what the drain watches for movement.
        var answersAndReceipts: Int { acknowledged + refusals + failedCalls + received }
        /// Send calls that failed, whatever the error.
        var failedCalls: Int { sendErrors.values.reduce(0, +) }
        /// Messages the server refused, whatever the reason.
        var refusals: Int { refused.values.reduce(0, +) }
    }

    private let state = Mutex(State())

    init() {}

    static let prefix = "bench "

    /// The text of a message sent now.
    static func text(sentAt nanoseconds: Int64) -> String { prefix + String(nanoseconds) }

    func sendStarted(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            state.started += 1
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

    /// Every send call returned, every message sent has its answer, and every acknowledged
    /// one was received. The comparison of the sets (a pass over each) runs only once the
    /// counts say it can hold: the drain asks often, while hundreds of thousands are under way.
    var isSettled: Bool {
        state.withLock {
            $0.inFlight == 0 && $0.unanswered == 0 && $0.receivedIDs.count >= $0.acknowledgedIDs.count
                && $0.receivedIDs.isSuperset(of: $0.acknowledgedIDs)
        }
    }

    /// Answers and receipts so far (see `State.answersAndReceipts`).
    var answersAndReceipts: Int { state.withLock { $0.answersAndReceipts } }

    /// For the progress line (counts only: a snapshot would copy the sets).
    var progress: String {
        let (sent, acknowledged, received) = state.withLock { ($0.sent, $0.acknowledged, $0.received) }
        return "\(sent) sent, \(acknowledged) acknowledged, \(received) received"
    }
}
