#if canImport(Glibc)
import Glibc
#endif

/// The server's two clocks: wall time for what is stored and compared with tokens, and a
/// monotonic clock for rates and timeouts. Injectable so tests can move wall time.
public struct ServerClock: Sendable {
    /// Milliseconds since the epoch.
    public var wallMilliseconds: @Sendable () -> Int64
    /// Time since an arbitrary fixed origin; never goes back.
    public var monotonic: @Sendable () -> Duration

    public init(wallMilliseconds: @escaping @Sendable () -> Int64, monotonic: @escaping @Sendable () -> Duration) {
        self.wallMilliseconds = wallMilliseconds
        self.monotonic = monotonic
    }

    /// The system's clocks.
    public static let system = ServerClock(
        wallMilliseconds: { systemWallMicroseconds() / 1000 },
        monotonic: {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
        })

    /// The system's wall time in µs since the epoch, never an injected one: for comparing
    /// with another process's clock (a notice's sending time), not for what is stored.
    static func systemWallMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}
