import IMTransport

/// Many connections' deadlines (connect timeout, keep-alive) served by one timer: a timing
/// wheel of `slots` buckets, each `tick` long.
///
/// A timer per connection cost each idle connection a closure, a heap entry and a dictionary
/// slot in its loop's timer queue, some 100 bytes; here a connection costs one entry in one
/// bucket. A deadline is kept to the tick (a late check, never an early one). A bucket holds
/// the entries of every revolution that lands in it, so the caller checks the real deadline
/// of each entry it gets back and inserts it again when not yet due.
struct DeadlineWheel<Entry> {
    let tick: UInt64
    private var buckets: [[Entry]]
    /// The last tick whose bucket was taken.
    private var current: UInt64

    /// `now` and every later time are nanoseconds on one monotonic clock.
    init(tick: Duration, slots: Int = 256, now: UInt64) {
        precondition(slots > 0 && tick > .zero)
        self.tick = tick.nanoseconds
        self.buckets = Array(repeating: [], count: slots)
        self.current = now / self.tick
    }

    var isEmpty: Bool { buckets.allSatisfy(\.isEmpty) }

    /// Files `entry` to come back from the first `advance` at or after `deadline`.
    mutating func insert(_ entry: Entry, at deadline: UInt64) {
        // Rounded up, so that an entry never comes back before its deadline.
        let due = max((deadline + tick - 1) / tick, current + 1)
        buckets[Int(due % UInt64(buckets.count))].append(entry)
    }

    /// Takes the entries of every tick that ended by `now`, for the caller to check.
    mutating func advance(to now: UInt64) -> [Entry] {
        let target = now / tick
        guard target > current else { return [] }
        var due: [Entry] = []
        // Past one revolution every bucket is taken once; the rest of the span lands in them again.
        let first = max(current + 1, target >= UInt64(buckets.count) ? target - UInt64(buckets.count) + 1 : 0)
        for tickNumber in first...target {
            let slot = Int(tickNumber % UInt64(buckets.count))
            due.append(contentsOf: buckets[slot])
            buckets[slot] = []  // frees the bucket's storage too: most are empty most of the time
        }
        current = target
        return due
    }
}
