import IMJSON
import IMThreads
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The parent of `imsh bench connect|messages --workers N`: hands each worker process (imsh
/// itself, `--worker K/N`) its share of the accounts, starts them all at one instant, and
/// collects their raw results for the bench to merge into one report.
///
/// A worker that fails (cannot start, ends early, says nothing in time) fails the run with
/// what it wrote on standard error; the others are killed.
struct WorkerPool: Sendable {
    /// What the workers answered, and the common start their times count from.
    struct Outcome: Sendable {
        var results: [JSONObject]
        var start: ContinuousClock.Instant
    }

    let count: Int
    let common: CommonOptions
    /// How long the measured part may take from the start, beyond which a silent worker fails.
    let measuredWithin: Duration
    /// Time for a worker to make its sessions, and to close them, beyond the connect timeout.
    static let slack: Duration = .seconds(120)
    /// How far ahead of now the common start is set, so that every worker reads it in time.
    static let startLead: Duration = .milliseconds(100)

    /// Runs `imsh bench BENCH --worker K/N OPTIONS(K) ...` for each share, with `lines[K-1]` as
    /// its accounts; `beforeStart` and `afterMeasured` run here at those moments.
    func run(
        bench: String, options: (WorkerShare) -> [String], lines: [String], on stage: BenchStage, phase: String,
        beforeStart: () async -> Void, afterMeasured: () async -> Void
    ) async throws(BenchError) -> Outcome {
        ProcessLimits.ignoreSIGPIPE()
        var workers: [WorkerProcess] = []
        for index in 1...count {
            let share = WorkerShare(index: index, count: count)
            let arguments = [
                "bench", bench, "--worker", share.description, "--threads", String(common.threads),
                "--timeout", String(BenchClock.seconds(common.timeout)),
                "--data", "\(stage.directory.clients)/worker\(share.index)", "--json",
            ] + options(share)
            do {
                let started = await BlockingCall.run { Result { () throws(BenchError) in try WorkerProcess(share: share, arguments: arguments) } }
                workers.append(try started.get())
            } catch {
                for worker in workers { await BlockingCall.run { worker.stop() } }
                throw error
            }
        }
        let ready = ContinuousClock.now + common.timeout + Self.slack
        _ = try await self.phase(workers, "did not get its sessions ready", stage: stage, phase: "workers") { worker in
            worker.send(lines[worker.share.index - 1]) ? worker.next("ready", until: ready) : nil
        }
        await beforeStart()
        let startNs = BenchClock.nanoseconds() + WorkerOutcome.nanoseconds(Self.startLead)
        let start = ContinuousClock.now + .nanoseconds(startNs - BenchClock.nanoseconds())
        let measured = start + measuredWithin + Self.slack
        let startLine = JSONValue.object(JSONObject([("start", .integer(startNs))])).jsonText
        _ = try await self.phase(workers, "did not finish its measurement", stage: stage, phase: phase) { worker in
            worker.send(startLine) ? worker.next("measured", until: measured) : nil
        }
        await afterMeasured()
        let ended = ContinuousClock.now + common.timeout + Self.slack
        let results = try await self.phase(workers, "gave no result", stage: stage, phase: "disconnect") { worker in
            worker.send(#"{"stop":true}"#) ? worker.next(nil, until: ended) : nil
        }
        var failures: [BenchError] = []
        for worker in workers {
            if let failure = await BlockingCall.run({ worker.finish() }) { failures.append(failure) }
        }
        if let failure = failures.first { throw failure }
        return Outcome(results: results, start: start)
    }

    /// Runs `body` for every worker at once, each on a thread of its own; the first to answer
    /// nil fails the run, after every worker was killed.
    private func phase(
        _ workers: [WorkerProcess], _ failure: String, stage: BenchStage, phase: String,
        _ body: @escaping @Sendable (WorkerProcess) -> JSONObject?
    ) async throws(BenchError) -> [JSONObject] {
        let total = count
        let answers = await stage.progress.during(phase, status: { Self.progress(workers, of: total) }) {
            await withTaskGroup(of: (Int, JSONObject?).self) { group in
                for (index, worker) in workers.enumerated() {
                    group.addTask { (index, await BlockingCall.run { body(worker) }) }
                }
                var answers = [JSONObject?](repeating: nil, count: workers.count)
                var failed: Int?
                for await (index, answer) in group {
                    answers[index] = answer
                    if answer == nil, failed == nil {
                        failed = index
                        // The others' reads end at once: their pipes close with them.
                        workers.forEach { $0.child.signal(SIGKILL) }
                    }
                }
                return (answers, failed)
            }
        }
        guard let failed = answers.1 else { return answers.0.compactMap { $0 } }
        let error = await BlockingCall.run { workers[failed].failure(failure) }
        for (index, worker) in workers.enumerated() where index != failed {
            await BlockingCall.run { worker.stop() }
        }
        throw error
    }

    /// The workers' progress counters added up, as `connected 10, failed 0 in 3 workers`.
    private static func progress(_ workers: [WorkerProcess], of total: Int) -> String {
        var sums: [String: Int] = [:]
        for worker in workers { sums.merge(worker.counts.withLock { $0 }, uniquingKeysWith: +) }
        guard !sums.isEmpty else { return "\(total) workers" }
        return sums.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + " in \(total) workers"
    }
}
