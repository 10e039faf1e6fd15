/// When an event loop hands freed heap memory back to the system: soon after work that frees
/// a lot (logins, closed connections), once the loop has nothing else to do.
///
/// glibc's malloc returns memory only from the top of a heap; pages freed in the middle
/// (a burst of logins leaves its packets, tokens and query results there, between the
/// connections' long-lived objects) stay resident until `malloc_trim`. A server with
/// thousands of idle connections would otherwise carry a burst's garbage for good. A trim
/// walks every heap, so it runs at most once per `interval`, and only on request.
struct HeapTrim {
    /// The least time between two trims.
    let interval: UInt64
    private(set) var isRequested = false
    private var lastTrim: UInt64?

    init(interval: Duration = .milliseconds(100)) {
        self.interval = interval.nanoseconds
    }

    /// Work that freed memory has run: trim when next idle.
    mutating func request() {
        isRequested = true
    }

    /// The loop is about to wait `timeout` milliseconds (-1: until an event) at `now`.
    /// Returns whether to trim now and how long to wait then: a trim that must wait out the
    /// interval shortens the wait, so that an idle loop still wakes to do it.
    mutating func beforeWaiting(timeout: Int32, now: UInt64) -> (trim: Bool, timeout: Int32) {
        guard isRequested, timeout != 0 else { return (false, timeout) }
        let due = lastTrim.map { $0 &+ interval } ?? now
        guard now >= due else {
            let remaining = Int32(clamping: (due - now + 999_999) / 1_000_000)
            return (false, timeout < 0 ? remaining : min(timeout, remaining))
        }
        isRequested = false
        lastTrim = now
        return (true, timeout)
    }
}
