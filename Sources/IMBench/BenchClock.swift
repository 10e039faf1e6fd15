#if canImport(Glibc)
import Glibc
#endif

/// Monotonic time as plain nanoseconds, so that an instant can travel inside a message's text.
enum BenchClock {
    /// Nanoseconds on CLOCK_MONOTONIC: comparable within this process (and machine) only.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Seconds as a `Double`, for rates and reports.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
