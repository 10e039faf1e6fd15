/// A network fault the proxy puts on one connection, or on every connection.
///
/// `delay`, `throttle` and `blackhole` are conditions that last until `pass` clears them
/// (delay and throttle combine); `close` and `cut` act once. See `FaultProxy` for what each
/// does to bytes in flight.
public enum Fault: Sendable, Hashable, CustomStringConvertible {
    /// Bytes and closes cross as they arrive: clears every condition and a cut not yet made.
    case pass
    /// Every chunk read is forwarded this long after it arrived; order is kept.
    case delay(Duration)
    /// At most this many bytes a second cross, in each direction.
    case throttle(bytesPerSecond: Int)
    /// This percentage of chunks is lost once and crosses a retransmission timeout late (the
    /// ones after it wait behind it, as TCP holds them), as TCP over a lossy path shows loss.
    case loss(percent: Int)
    /// Nothing crosses and no socket closes, as when packets are lost.
    case blackhole
    /// Both sides are reset (RST) at once.
    case close
    /// The next MQTT packet to cross, either way, is forwarded in part; then both sides close.
    case cut

    public var kind: FaultKind {
        switch self {
        case .pass: return .pass
        case .delay: return .delay
        case .throttle: return .throttle
        case .loss: return .loss
        case .blackhole: return .blackhole
        case .close: return .close
        case .cut: return .cut
        }
    }

    /// A delay's length in whole milliseconds; nil for the other faults.
    public var delayMilliseconds: Int64? {
        guard case .delay(let duration) = self else { return nil }
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }

    /// The fault as the `fault` command spells it: `delay 120`, `throttle 2000`, `loss 10`, `cut`.
    public var description: String {
        switch self {
        case .delay: return "delay \(delayMilliseconds ?? 0)"
        case .throttle(let rate): return "throttle \(rate)"
        case .loss(let percent): return "loss \(percent)"
        default: return kind.rawValue
        }
    }
}
