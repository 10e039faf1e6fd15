import IMBench
import IMChaos
import Synchronization

/// The faults a chaos run injected, by kind, and when each ran: the report's count, and the
/// context a violation is printed with (what was going on around it).
final class ChaosTally: Sendable {
    /// One fault the run made, from its start to its repair (nil while it lasts).
    struct Span: Sendable {
        var kind: String
        var detail: String
        var start: ContinuousClock.Instant
        var end: ContinuousClock.Instant?
        /// The node it hit, for a fault of one node's link to PostgreSQL.
        var node: Int?
    }

    private struct State {
        var counts: [String: Int] = [:]
        var spans: [Span] = []
    }

    private let state = Mutex(State())

    /// A random fault or a cut of the faulty client proxies (on a proxy's thread).
    func record(_ event: ProxyEvent) {
        switch event {
        case .fault(let fault) where fault.origin == .random: count("client link \(fault.fault.kind.rawValue)")
        case .fault: break
        case .cut: count("client link cut made")
        }
    }

    /// Starts a fault of `kind`; returns its number, for `ended`. A fault that does not last
    /// (a kick, a login) ends where it starts.
    @discardableResult
    func began(
        _ kind: String, _ detail: String, lasting: Bool = true, node: Int? = nil, at instant: ContinuousClock.Instant = .now
    ) -> Int {
        state.withLock { state in
            state.counts[kind, default: 0] += 1
            state.spans.append(Span(kind: kind, detail: detail, start: instant, end: lasting ? nil : instant, node: node))
            return state.spans.count - 1
        }
    }

    func ended(_ number: Int, at instant: ContinuousClock.Instant = .now) {
        state.withLock { $0.spans[number].end = instant }
    }

    private func count(_ kind: String) {
        state.withLock { $0.counts[kind, default: 0] += 1 }
    }

    var counts: [String: Int] { state.withLock { $0.counts } }

    /// Whether a node was frozen or killed at some time within `from...to`: its clients learn
    /// of their end from their heartbeat alone.
    func nodeDown(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Bool {
        state.withLock { state in
            state.spans.contains { ($0.kind == "node SIGSTOP" || $0.kind == "node SIGKILL") && $0.start <= to && ($0.end ?? to) >= from }
        }
    }

    /// When the last cut of `node`'s link to PostgreSQL within `from...to` ended (now + 1 s
    /// while it lasts), or nil: a node cut off acts on the other nodes' notices (a block, a
    /// login elsewhere) once it is back, and its stop waits for its database calls.
    func storeCutEnd(node: Int, _ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        state.withLock { state in
            state.spans.filter { $0.kind == "store link black hole" && $0.node == node && $0.start <= to && ($0.end ?? to) >= from }
                .map { $0.end ?? .now + .seconds(1) }.max()
        }
    }

    /// Faults injected, all kinds together (cuts made are the effect of `cut` faults: not counted again).
    var total: Int { state.withLock { $0.counts.filter { $0.key != "client link cut made" }.values.reduce(0, +) } }

    /// The faults that overlapped `from...to` (those that do not last, from a second before),
    /// in words with their times since `origin`.
    func around(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant, origin: ContinuousClock.Instant) -> [String] {
        state.withLock { state in
            state.spans.filter { $0.start <= to && ($0.end ?? to) >= from - .seconds(1) }.map { span in
                let end = span.end.map { Units.oneDecimal(Units.seconds(origin.duration(to: $0))) } ?? "end"
                return "\(span.detail) \(Units.oneDecimal(Units.seconds(origin.duration(to: span.start))))-\(end) s"
            }
        }
    }
}
