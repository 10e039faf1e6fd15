#if canImport(Glibc)
import Glibc
#endif

/// The system's wall clock, in the units the contract uses.
public enum WallClock {
    /// Milliseconds since the epoch.
    public static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
