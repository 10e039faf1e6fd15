/// How long the message lane's transactions took and how many store calls each carried.
///
/// Kept by the lane on the broker's loop (one clock reading per transaction, not per message);
/// a scrape copies it. With SQLite a transaction is a loop turn's calls committed together;
/// with PostgreSQL a job of a turn's calls (`PostgresMessageLane`), timed from the loop (pool
/// wait included).
struct StoreCommitStatistics: Sendable {
    var seconds = MetricsHistogram.seconds()
    var batchSizes = MetricsHistogram.batchSizes()

    /// One transaction of `calls` calls that began at `start` has ended now.
    mutating func record(since start: ContinuousClock.Instant, calls: Int) {
        let elapsed = ContinuousClock.now - start
        seconds.observe(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        batchSizes.observe(Double(calls))
    }
}
