/// Percentiles of a set of durations, by the nearest-rank method.
package struct LatencySummary: Sendable, Equatable {
    package var count: Int
    package var p50: Duration
    package var p90: Duration
    package var p99: Duration
    package var max: Duration

    /// The summary of `samples`; nil when there are none.
    package init?(_ samples: [Duration]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func rank(_ percent: Int) -> Duration {
            // Nearest rank: the smallest sample with at least `percent`% of the samples at or below it.
            let index = (percent * sorted.count + 99) / 100 - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))]
        }
        count = sorted.count
        p50 = rank(50)
        p90 = rank(90)
        p99 = rank(99)
        max = sorted[sorted.count - 1]
    }
}
