#if canImport(Glibc)
import Glibc
#endif

/// The time a session's policy runs on: real by default, virtual in tests.
///
/// Reconnection waits, the connect timeout, the background grace and the heartbeat all sleep
/// on this clock, so a test can drive them without waiting. Socket-level bounds (connect and
/// CONNACK timeouts, the stagger between servers) stay on real time: they are about I/O.
public protocol EngineClock: Sendable {
    /// Monotonic time since an origin of the clock's choosing.
    var now: Duration { get }
    /// Suspends until `now` reaches `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Duration) async throws
    /// Wall-clock milliseconds since the epoch, for the connection log and message times.
    var epochMilliseconds: Int64 { get }
}

/// The real clock: `ContinuousClock` for waits, `CLOCK_REALTIME` for timestamps.
public struct SystemEngineClock: EngineClock {
    private let origin: ContinuousClock.Instant

    public init() { origin = .now }

    public var now: Duration { ContinuousClock.now - origin }

    public func sleep(until deadline: Duration) async throws {
        try await ContinuousClock().sleep(until: origin + deadline, tolerance: nil)
    }

    public var epochMilliseconds: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
