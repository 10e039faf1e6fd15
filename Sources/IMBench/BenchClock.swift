#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time as plain nanoseconds, so that an instant can travel inside a message's text.
enum BenchClock {
    /// Where this process's nanoseconds count from.
    private static let origin = ContinuousClock.now

    /// Nanoseconds of `ContinuousClock` since a point early in this process: comparable within
    /// this process only, and with the instants the engine's events carry.
    static func nanoseconds(at instant: ContinuousClock.Instant = .now) -> Int64 {
        let (seconds, attoseconds) = (instant - origin).components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Seconds as a `Double`, for rates and reports.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
