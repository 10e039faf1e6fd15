#if canImport(Glibc)
import Glibc
#endif

/// The wall clock the server API checks request timestamps against, in ms since the epoch.
///
/// Injectable so that tests can put the server's "now" anywhere relative to a request.
public struct APIClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that answers `read()` each time it is asked.
    public init(_ read: @escaping @Sendable () -> Int64) {
        self.read = read
    }

    /// Milliseconds since the Unix epoch, now.
    public func now() -> Int64 { read() }

    /// The system's real-time clock.
    public static let system = APIClock {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
