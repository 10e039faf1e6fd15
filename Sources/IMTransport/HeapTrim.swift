/// When an event loop hands freed heap memory back to the system: soon after work that frees
/// a lot (logins, closed connections), once the loop has nothing else to do.
///
/// glibc's malloc returns memory only from the top of a heap; pages freed in the middle
/// (a burst of logins leaves its packets, tokens and query results there, between the
/// connections' long-lived objects) stay resident until `malloc_trim`. A server with
/// thousands of idle connections would otherwise carry a burst's garbage for good.
///
/// A trim walks every heap, so its cost grows with the heap: after each one the loop waits
/// `gapFactor` times as long as it took before the next, which keeps trimming to about 1% of
/// the loop's time under a steady stream of logins while an idle loop trims at once.
struct HeapTrim {
    static let gapFactor: UInt64 = 100
    private(set) var isRequested = false
    /// No trim before this time (nanoseconds, monotonic).
    private var nextAllowed: UInt64 = 0

    /// Work that freed memory has run: trim when next idle.
    mutating func request() {
        isRequested = true
    }

    /// The loop is about to wait `timeout` milliseconds (-1: until an event) at `now`.
    /// Returns whether to trim now and how long to wait then: a trim that must wait out its
    /// gap shortens the wait, so that an idle loop still wakes to do it.
    mutating func beforeWaiting(timeout: Int32, now: UInt64) -> (trim: Bool, timeout: Int32) {
        guard isRequested, timeout != 0 else { return (false, timeout) }
        guard now >= nextAllowed else {
            let remaining = Int32(clamping: (nextAllowed - now + 999_999) / 1_000_000)
            return (false, timeout < 0 ? remaining : min(timeout, remaining))
        }
        isRequested = false
        return (true, timeout)
    }

    /// A trim ran from `start` to `end`: the next waits `gapFactor` times as long.
    mutating func trimmed(from start: UInt64, to end: UInt64) {
        nextAllowed = end &+ (end &- start) &* Self.gapFactor
    }
}
