/// What `link ACCOUNT` puts on the account's link, through the fault proxy in front of it.
public enum LinkFault: Sendable, Equatable {
    /// Every chunk crosses this many milliseconds late, each way, in order.
    case delay(milliseconds: Int)
    /// This percentage of chunks is lost once and crosses a retransmission timeout late, as
    /// TCP over a lossy path shows loss; drawn from the run's seed (`imsh --seed`).
    case loss(percent: Int)
    /// Nothing crosses and nothing closes, as when every packet is dropped.
    case blackhole
    /// Bytes cross as they come: every condition above is lifted.
    case clear

    /// As typed: `delay 200`, `loss 10`, `blackhole`, `clear`.
    public var description: String {
        switch self {
        case .delay(let milliseconds): return "delay \(milliseconds)"
        case .loss(let percent): return "loss \(percent)"
        case .blackhole: return "blackhole"
        case .clear: return "clear"
        }
    }
}
