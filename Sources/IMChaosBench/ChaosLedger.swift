import IMEngine
import Synchronization

/// Every message of a chaos run: sent (by a user's pc, to another user), acknowledged (PUBACK
/// 0x00: stored by the service), and received by each device of its recipient's application
/// (the engine's message events, after its own check of the server's uid).
///
/// A message's text is `chaos SENDER NUMBER`, numbered per sender and recipient in the order
/// of the send calls, so a receiving device checks the order without a lookup: a message older
/// than one it already has from the same sender arrived out of order.
final class ChaosLedger: Sendable {
    struct Sent: Sendable {
        var from: String
        var to: Int
        var number: Int
        /// When the send call returned (the engine had stored it).
        var at: ContinuousClock.Instant = .now
    }

    struct State: Sendable {
        var sent: [String: Sent] = [:]
        var acknowledged: Set<String> = []
        /// Every cid with an answer, acknowledgement or refusal.
        var answered: Set<String> = []
        var refused: [String: Int] = [:]
        var sendErrors: [String: Int] = [:]
        /// Receipts by device name (`u3/m1`), each cid with how often the application got it.
        var receipts: [String: [String: Int]] = [:]
        /// The highest number received by device, from each sender.
        var lastNumber: [String: [String: Int]] = [:]
        var received = 0
        var duplicates: [String] = []
        /// Deliveries of a message the device had stored, which its engine acknowledged and dropped.
        var droppedResends = 0
        var outOfOrder: [String] = []
        var foreign = 0
    }

    private let state = Mutex(State())
    private let numbers = Mutex([String: Int]())

    /// The next number from `from` to `to`, and the text that carries it.
    func nextText(from: String, to: String) -> (Int, String) {
        let number = numbers.withLock { numbers -> Int in
            numbers["\(from)>\(to)", default: 0] += 1
            return numbers["\(from)>\(to)"]!
        }
        return (number, "chaos \(from) \(number)")
    }

    func sent(cid: String, _ message: Sent) {
        state.withLock { $0.sent[cid] = message }
    }

    func sendFailed(_ error: EngineError) {
        let key = error.code?.description ?? "\(error)"
        state.withLock { $0.sendErrors[key, default: 0] += 1 }
    }

    func report(_ report: SendReport) {
        state.withLock { state in
            state.answered.insert(report.cid)
            if report.isAccepted {
                state.acknowledged.insert(report.cid)
            } else {
                state.refused[report.failure ?? "\(report.reasonCode)", default: 0] += 1
            }
        }
    }

    /// `device` handed `message` to the application.
    func received(_ message: StoredMessage, by device: String) {
        let words = message.text.split(separator: " ")
        guard words.count == 3, words[0] == "chaos", let number = Int(words[2]), let cid = message.cid else {
            state.withLock { $0.foreign += 1 }
            return
        }
        let from = String(words[1])
        state.withLock { state in
            state.received += 1
            let copies = (state.receipts[device]?[cid] ?? 0) + 1
            state.receipts[device, default: [:]][cid] = copies
            if copies > 1 {
                state.duplicates.append("\(device) got \(cid) (\(from) #\(number)) \(copies) times")
                return
            }
            let last = state.lastNumber[device]?[from] ?? 0
            if number < last {
                state.outOfOrder.append("\(device) got \(from) #\(number) after #\(last)")
            } else {
                state.lastNumber[device, default: [:]][from] = number
            }
        }
    }

    /// A device's engine dropped a delivery of a message it had stored (a resend).
    func droppedResend() {
        state.withLock { $0.droppedResends += 1 }
    }

    var snapshot: State { state.withLock { $0 } }

    var progress: String {
        state.withLock { "\($0.sent.count) sent, \($0.acknowledged.count) acknowledged, \($0.received) received" }
    }

    /// Acknowledged messages that a device of their recipient has not received, as
    /// `device: cid`; `devices(user)` names the user's devices.
    func missing(devices: (Int) -> [String]) -> [String] {
        state.withLock { state in
            var missing: [String] = []
            for cid in state.acknowledged {
                guard let sent = state.sent[cid] else { continue }
                for device in devices(sent.to) where state.receipts[device]?[cid] == nil {
                    missing.append("\(device): \(cid) (\(sent.from) #\(sent.number))")
                }
            }
            return missing
        }
    }

    /// Messages sent that have had no answer, neither PUBACK nor refusal.
    var unanswered: [String] {
        state.withLock { state in state.sent.keys.filter { !state.answered.contains($0) }.sorted() }
    }

    /// The messages sent without an answer, with what the ledger knows of each, oldest first.
    var unansweredMessages: [(cid: String, sent: Sent)] {
        state.withLock { state in
            state.sent.filter { !state.answered.contains($0.key) }.map { ($0.key, $0.value) }.sorted { $0.1.at < $1.1.at }
        }
    }
}
