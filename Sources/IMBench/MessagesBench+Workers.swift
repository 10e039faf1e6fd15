#if canImport(Glibc)
import Glibc
#endif

extension MessagesBench {
    /// The users made here, each worker process sending over its share of the pairs.
    func runWorkers(_ count: Int, progress: ProgressLine) async throws(BenchError) -> MessagesReport {
        try WorkerOptions.checkShare(largest: 2 * WorkerShare(index: 1, count: count).range(of: pairs).count)
        return try await BenchStage.run(common, sessions: 2 * pairs, clientsInProcess: false, progress: progress) { stage throws(BenchError) in
            let senders = await stage.pinned(try await stage.users("send", count: pairs))
            let receivers = await stage.pinned(try await stage.users("recv", count: pairs))
            let appKey = await stage.server.appKey
            // A worker takes its pairs' senders, then their receivers.
            let lines = (1...count).map { index in
                let range = WorkerShare(index: index, count: count).range(of: pairs)
                return WorkerChannel.accountsLine(appKey: appKey, (senders[range] + receivers[range])[...])
            }
            var report = MessagesReport(pairs: pairs, rate: rate, duration: duration, placement: await stage.server.placement)
            let pool = WorkerPool(count: count, common: common, measuredWithin: duration + common.timeout + Self.drainGrace)
            let outcome = try await pool.run(
                bench: "messages", options: workerOptions, lines: lines, on: stage, phase: "messages", beforeStart: {}, afterMeasured: {})
            let outcomes = outcome.results.compactMap { MessagesOutcome(json: $0, start: outcome.start) }
            guard outcomes.count == count else { throw BenchError("a worker's result could not be read") }
            report.merge(outcomes)
            return report
        }
    }

    /// A messages worker's own options: its pairs, and the rate that keeps each sender's period.
    private func workerOptions(_ share: WorkerShare) -> [String] {
        let mine = share.range(of: pairs).count
        return ["--pairs", String(mine), "--rate", String(rate * Double(mine) / Double(pairs)), "--duration", String(BenchClock.seconds(duration))]
    }

    /// In a worker process: connects the senders and receivers its parent wrote, sends from
    /// the common start, and reports its ledger raw (see `WorkerChannel`).
    func runWorker(_ share: WorkerShare) async throws(BenchError) -> MessagesOutcome {
        let worker = try await WorkerFleet.open(share, common: common)
        defer { worker.directory.release() }
        let (fleet, accounts) = (worker.fleet, worker.accounts)
        let recorder = ConnectRecorder(expected: accounts.count)
        await fleet.connectAll(rate: nil, recorder: recorder)
        try await Self.requireAll(recorder.snapshot, of: fleet)
        await fleet.settle()
        let start = try await worker.ready(share)
        let (ledger, stored, _, away) = await exchange(in: fleet, accounts: accounts, start: start, progress: ProgressLine(mode: .silent))
        await WorkerChannel.measured()
        await fleet.shutdown()
        return MessagesOutcome(share: share, pid: getpid(), ledger: ledger, stored: stored, away: away, start: start)
    }
}
