/// How long a session waits before each reconnection attempt (contract section 4).
///
/// Attempt by attempt: 0.05 s, 0.25 s, 0.5 s, 1 s, 2 s, 4 s, 8 s, 16 s, 32 s, then 64 s for every
/// later attempt. Jitter, off by default so the schedule holds exactly, spreads each wait over
/// `delay × (1 ± jitter)` so that many sessions dropped at once do not return at once.
public struct BackoffSchedule: Sendable, Equatable {
    /// The waits before the first attempts, in order.
    public var delays: [Duration]
    /// The wait before every attempt past `delays`.
    public var ceiling: Duration
    /// The fraction, 0...1, by which each wait may vary either way.
    public var jitter: Double

    public init(
        delays: [Duration] = [.milliseconds(50), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2),
                              .seconds(4), .seconds(8), .seconds(16), .seconds(32)],
        ceiling: Duration = .seconds(64),
        jitter: Double = 0
    ) {
        self.delays = delays
        self.ceiling = ceiling
        self.jitter = min(1, max(0, jitter))
    }

    /// The wait before attempt `attempt` (0 is the first retry), without jitter.
    public func baseDelay(forAttempt attempt: Int) -> Duration {
        attempt < delays.count ? delays[max(0, attempt)] : ceiling
    }

    /// The wait before attempt `attempt`, with jitter drawn from `random`.
    public func delay(forAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Duration {
        let base = baseDelay(forAttempt: attempt)
        guard jitter > 0 else { return base }
        let factor = 1 - jitter + 2 * jitter * Double.random(in: 0...1, using: &random)
        return base * factor
    }
}
