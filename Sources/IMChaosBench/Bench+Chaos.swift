import IMBench

extension Bench {
    /// `imsh bench chaos`, for imsh to add to the benches of IMBench (which cannot name it: this
    /// module builds on that one).
    package static let chaos: BenchEntry = (
        ChaosBench.self, "--store URL [--store-restart COMMAND] [--duration S] [--seed N] [options]"
    )
}
