/// A token bucket that bounds how many CONNECTs per second the server takes (0x9F beyond it).
///
/// Time is passed in, so tests drive it in virtual time and the server reads its clock once per call.
public struct ConnectRateLimiter: Sendable {
    /// Connects allowed per second on average.
    public let rate: Double
    /// Connects allowed at once after a quiet period.
    public let burst: Double
    private var tokens: Double
    private var last: Duration?

    /// - Parameters:
    ///   - rate: sustained connects per second; 0 or less turns the limit off.
    ///   - burst: bucket size; defaults to one second's worth.
    public init(rate: Double, burst: Double? = nil) {
        self.rate = rate
        self.burst = max(1, burst ?? rate)
        self.tokens = self.burst
    }

    /// Takes one token if there is one at `now` (time since any fixed origin).
    public mutating func tryAcquire(now: Duration) -> Bool {
        guard rate > 0 else { return true }
        if let last, now > last {
            let elapsed = (now - last) / .seconds(1)
            tokens = min(burst, tokens + elapsed * rate)
        }
        last = max(last ?? now, now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
