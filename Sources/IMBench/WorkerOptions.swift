import IMCommandLine

/// `--workers N` and `--worker K/N`, for the benches that can spread their sessions over
/// worker processes (connect, messages).
struct WorkerOptions: Sendable {
    /// Spread the sessions over this many worker processes; nil: run them here.
    var workers: Int?
    /// Set in a worker process: which share it runs.
    var worker: WorkerShare?

    static let options: [OptionSpec] = [
        OptionSpec("--workers", value: "N", help: "run the sessions in N worker processes, each with its own descriptor limit, and merge their figures (with --server spawn or URLs)"),
        OptionSpec("--worker", value: "K/N", help: "internal: run as worker K of N for a parent --workers run, reading the accounts on standard input"),
    ]

    init() {}

    /// Reads both; `--workers` wants a server apart from this process and no profile.
    init(_ reader: OptionReader, common: CommonOptions, profile: String?) throws(UsageError) {
        workers = try reader.integer("--workers", in: 1...256)
        if let text = reader.parsed.value("--worker") {
            guard let share = WorkerShare(text) else { throw UsageError("--worker wants K/N with 1 <= K <= N, not '\(text)'") }
            worker = share
        }
        guard workers != nil else { return }
        if profile != nil { throw UsageError("--workers does not go with --profile: give the servers with --server spawn or URLs") }
        if common.server == .embedded {
            throw UsageError("--workers needs a server apart from this process: --server spawn, or the servers' URLs")
        }
    }

    /// Fails at once when a worker's `largest` share of sessions cannot fit its descriptor limit
    /// (workers inherit this process's): better now than after making the users.
    static func checkShare(largest: Int) throws(BenchError) {
        do throws(BenchError) {
            try DescriptorBudget(sessions: largest, serverInProcess: false).reserve()
        } catch {
            throw BenchError("one worker's share: \(error)")
        }
    }
}
