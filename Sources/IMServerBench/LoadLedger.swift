import IMBench
import Synchronization

/// Every message of a server bench: published, acknowledged (PUBACK), delivered, and the time
/// from its scheduled send to its delivery.
///
/// A message is `pair` and `sequence`; its payload carries both and the nanoseconds of its
/// scheduled send since the bench's origin, so the receiving side needs no lookup. Latency is
/// taken from the scheduled time, not the moment the publisher got to it: a publisher that
/// falls behind an open-loop rate shows as latency (no coordinated omission).
final class LoadLedger: Sendable {
    struct State: Sendable {
        var published = 0
        var acknowledged = 0
        var refused: [String: Int] = [:]
        var delivered = 0
        var duplicates = 0
        var latencies: [Duration] = []
        /// When each of `latencies` was measured (its delivery), for the per-second figures.
        var latencyTimes: [ContinuousClock.Instant] = []
        var acknowledgedIDs: Set<UInt64> = []
        var deliveredIDs: Set<UInt64> = []
        /// Disconnects and transport errors by text, with how often each happened.
        var problems: [String: Int] = [:]
        var firstPublish: ContinuousClock.Instant?
        var lastDelivery: ContinuousClock.Instant?

        /// Acknowledged by the server, never delivered.
        var lost: Int { acknowledgedIDs.subtracting(deliveredIDs).count }
    }

    let origin: ContinuousClock.Instant
    private let state = Mutex(State())

    init(origin: ContinuousClock.Instant = .now) {
        self.origin = origin
    }

    var snapshot: State { state.withLock { $0 } }

    static func id(pair: Int, sequence: Int) -> UInt64 { UInt64(pair) << 40 | UInt64(sequence) }

    /// The payload's text: `lb PAIR SEQUENCE NANOSECONDS`.
    static func text(pair: Int, sequence: Int, scheduled nanoseconds: Int64) -> String {
        "lb \(pair) \(sequence) \(nanoseconds)"
    }

    func published(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            state.published += 1
            if state.firstPublish == nil { state.firstPublish = instant }
        }
    }

    func acknowledged(_ id: UInt64, reason: String?) {
        state.withLock { state in
            if let reason {
                state.refused[reason, default: 0] += 1
            } else {
                state.acknowledged += 1
                state.acknowledgedIDs.insert(id)
            }
        }
    }

    /// A delivery whose payload holds `text` (found inside a JSON message or as it is).
    func delivered(_ payload: [UInt8], at instant: ContinuousClock.Instant) {
        guard let (id, scheduled) = Self.parse(payload) else {
            return problem("a delivery the bench did not send")
        }
        let latency = instant - (origin + .nanoseconds(scheduled))
        state.withLock { state in
            state.delivered += 1
            state.lastDelivery = instant
            if state.deliveredIDs.insert(id).inserted {
                state.latencies.append(latency)
                state.latencyTimes.append(instant)
            } else {
                state.duplicates += 1
            }
        }
    }

    func problem(_ text: String) {
        state.withLock { $0.problems[text, default: 0] += 1 }
    }

    /// The id and scheduled time in `lb PAIR SEQUENCE NANOSECONDS`, wherever it is in the payload.
    static func parse(_ payload: [UInt8]) -> (UInt64, Int64)? {
        let marker = Array("lb ".utf8)
        guard let start = payload.indices.first(where: { payload[$0...].starts(with: marker) }) else { return nil }
        var numbers: [Int64] = []
        var current: Int64?
        for byte in payload[(start + marker.count)...] {
            if (0x30...0x39).contains(byte) {
                current = (current ?? 0) * 10 + Int64(byte - 0x30)
            } else if byte == UInt8(ascii: " "), let value = current {
                numbers.append(value)
                current = nil
            } else {
                break
            }
        }
        if let current { numbers.append(current) }
        guard numbers.count == 3 else { return nil }
        return (id(pair: Int(numbers[0]), sequence: Int(numbers[1])), numbers[2])
    }
}
