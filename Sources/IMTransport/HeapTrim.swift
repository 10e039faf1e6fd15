import Synchronization

/// When an event loop hands freed heap memory back to the system: soon after work that frees
/// a lot (logins, closed connections), once the loop has nothing else to do.
///
/// glibc's malloc returns memory only from the top of a heap; pages freed in the middle
/// (a burst of logins leaves its packets, tokens and query results there, between the
/// connections' long-lived objects) stay resident until `malloc_trim`. A server with
/// thousands of idle connections would otherwise carry a burst's garbage for good.
///
/// A trim walks every heap of the process, whichever loop runs it, so its cost grows with the
/// process and the gap between trims is kept process-wide (`Gate`): after each one, all loops
/// wait `gapFactor` times as long as it took. That keeps trimming to about 1% of one core
/// under a steady stream of logins, while an idle loop trims at once.
struct HeapTrim {
    static let gapFactor: UInt64 = 100

    /// The earliest time of the next trim, shared by the loops that trim the same heaps.
    final class Gate: Sendable {
        /// Every loop of the process: they share its heaps.
        static let process = Gate()
        let nextAllowed = Atomic<UInt64>(0)
    }

    let gate: Gate
    private(set) var isRequested = false

    init(gate: Gate = .process) {
        self.gate = gate
    }

    /// Work that freed memory has run: trim when next idle.
    mutating func request() {
        isRequested = true
    }

    /// The loop is about to wait `timeout` milliseconds (-1: until an event) at `now`.
    /// Returns whether to trim now (then call `trimmed`) and how long to wait: a trim that must
    /// wait out the gap shortens the wait, so that an idle loop still wakes to do it.
    mutating func beforeWaiting(timeout: Int32, now: UInt64) -> (trim: Bool, timeout: Int32) {
        guard isRequested, timeout != 0 else { return (false, timeout) }
        let allowed = gate.nextAllowed.load(ordering: .relaxed)
        // Claimed for a second while this loop trims, so that no other starts meanwhile.
        guard now >= allowed,
              gate.nextAllowed.compareExchange(expected: allowed, desired: now &+ 1_000_000_000, ordering: .relaxed).exchanged
        else {
            let remaining = Int32(clamping: (max(allowed, now &+ 1) - now + 999_999) / 1_000_000)
            return (false, timeout < 0 ? remaining : min(timeout, remaining))
        }
        isRequested = false
        return (true, timeout)
    }

    /// A trim ran from `start` to `end`: the next, on any loop, waits `gapFactor` times as long.
    func trimmed(from start: UInt64, to end: UInt64) {
        gate.nextAllowed.store(end &+ (end &- start) &* Self.gapFactor, ordering: .relaxed)
    }
}
