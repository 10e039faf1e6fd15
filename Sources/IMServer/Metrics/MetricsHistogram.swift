/// Observations counted into fixed buckets, as a Prometheus histogram exposes them.
///
/// A value type owned by whoever observes (the broker's loop): observing is a short scan of
/// the bounds and three additions, with no lock; a scrape copies it.
struct MetricsHistogram: Sendable, Equatable {
    /// The buckets' upper bounds, ascending; `+Inf` is implied.
    let bounds: [Double]
    /// Observations per bucket (not cumulative), one more than `bounds` for `+Inf`.
    private(set) var counts: [Int]
    private(set) var sum = 0.0
    private(set) var count = 0

    init(bounds: [Double]) {
        self.bounds = bounds
        self.counts = Array(repeating: 0, count: bounds.count + 1)
    }

    mutating func observe(_ value: Double) {
        var index = 0
        while index < bounds.count && value > bounds[index] { index += 1 }
        counts[index] += 1
        sum += value
        count += 1
    }

    /// Each bound with the observations at or below it, `+Inf` (nil) last: the `_bucket` samples.
    var cumulative: [(bound: Double?, count: Int)] {
        var running = 0
        return counts.enumerated().map { index, count in
            running += count
            return (index < bounds.count ? bounds[index] : nil, running)
        }
    }

    /// Seconds a step on a message's way takes (a store commit, a notice's way between nodes):
    /// 100 µs to 2.5 s.
    static func seconds() -> MetricsHistogram {
        MetricsHistogram(bounds: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5])
    }

    /// Store calls one commit carries: powers of two to 1024.
    static func batchSizes() -> MetricsHistogram {
        MetricsHistogram(bounds: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
    }
}
