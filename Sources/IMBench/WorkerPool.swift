import IMJSON
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The parent of `imsh bench connect --workers N`: hands each worker process a contiguous share
/// of the accounts, starts them all at one instant, and merges their raw figures into one
/// report, as if one process had connected every session.
///
/// A worker that fails (cannot start, ends early, says nothing in time) fails the run with
/// what it wrote on standard error; the others are killed.
struct WorkerPool: Sendable {
    let count: Int
    let common: CommonOptions
    let rate: Double?
    let hold: Duration
    /// Time for a worker to make its sessions, and to close them, beyond the connect timeout.
    static let slack: Duration = .seconds(120)
    /// How far ahead of now the common start is set, so that every worker reads it in time.
    static let startLead: Duration = .milliseconds(100)

    func run(_ accounts: [BenchAccount], on stage: BenchStage) async throws(BenchError) -> ConnectReport {
        ProcessLimits.ignoreSIGPIPE()
        let appKey = await stage.server.appKey
        var workers: [WorkerProcess] = []
        for index in 1...count {
            let share = WorkerShare(index: index, count: count)
            do {
                workers.append(try WorkerProcess(share: share, arguments: arguments(share, accounts: accounts.count, stage: stage)))
            } catch {
                for worker in workers { await BlockingCall.run { worker.stop() } }
                throw error
            }
        }
        let ready = ContinuousClock.now + common.timeout + Self.slack
        _ = try await phase(workers, "did not get its sessions ready", stage: stage, phase: "workers") { worker in
            let line = ConnectWorker.accountsLine(appKey: appKey, accounts[worker.share.range(of: accounts.count)])
            return worker.send(line) ? worker.next("ready", until: ready) : nil
        }
        var report = ConnectReport(accounts: accounts.count, threads: common.threads, rate: rate, placement: await stage.server.placement)
        report.memory.serverBefore = await stage.serverStatus()
        let startNs = BenchClock.nanoseconds() + WorkerOutcome.nanoseconds(Self.startLead)
        let start = ContinuousClock.now + .nanoseconds(startNs - BenchClock.nanoseconds())
        let spread = rate.map { Duration.seconds(Double(accounts.count) / $0) } ?? .zero
        let connected = start + spread + common.timeout + Self.slack
        let startLine = JSONValue.object(JSONObject([("start", .integer(startNs))])).jsonText
        _ = try await phase(workers, "did not finish connecting", stage: stage, phase: "connect") { worker in
            worker.send(startLine) ? worker.next("connected", until: connected) : nil
        }
        report.memory.serverConnected = await stage.serverStatus()
        if hold > .zero {
            await stage.progress.during("hold", status: { "\(BenchClock.seconds(hold)) s" }) {
                try? await Task.sleep(for: hold)
            }
        }
        let ended = ContinuousClock.now + common.timeout + Self.slack
        let results = try await phase(workers, "gave no result", stage: stage, phase: "disconnect") { worker in
            worker.send(#"{"stop":true}"#) ? worker.next(nil, until: ended) : nil
        }
        for worker in workers {
            if let failure = await BlockingCall.run({ worker.finish() }) { throw failure }
        }
        let outcomes = results.compactMap { WorkerOutcome(json: $0) }
        guard outcomes.count == count else { throw BenchError("a worker's result could not be read") }
        report.merge(outcomes, start: start, hold: hold > .zero ? hold : nil)
        return report
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

    private static func progress(_ workers: [WorkerProcess], of total: Int) -> String {
        let counts = workers.map { worker in worker.counts.withLock { $0 } }
        let connected = counts.map(\.connected).reduce(0, +), failed = counts.map(\.failed).reduce(0, +)
        return "\(connected) connected, \(failed) failed in \(total) workers"
    }

    /// `imsh bench connect --worker K/N ...`: the options that shape a worker's sessions.
    private func arguments(_ share: WorkerShare, accounts: Int, stage: BenchStage) -> [String] {
        var arguments = [
            "bench", "connect", "--worker", share.description, "--accounts", String(share.range(of: accounts).count),
            "--threads", String(common.threads), "--timeout", String(BenchClock.seconds(common.timeout)),
            "--data", "\(stage.directory.clients)/worker\(share.index)", "--json",
        ]
        // Each worker starts its share of the rate, so that together they keep to it.
        if let rate { arguments += ["--rate", String(rate / Double(count))] }
        return arguments
    }
}
