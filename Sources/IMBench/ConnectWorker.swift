import IMJSON
import IMProcess
#if canImport(Glibc)
import Glibc
#endif

/// One worker process of `imsh bench connect --workers N`: connects the share of accounts its
/// parent writes on standard input from the common start, and reports raw figures (see
/// `WorkerChannel` for the conversation).
enum ConnectWorker {
    static func run(_ share: WorkerShare, common: CommonOptions, rate: Double?) async throws(BenchError) -> WorkerOutcome {
        let worker = try await WorkerFleet.open(share, common: common)
        defer { worker.directory.release() }
        let (fleet, accounts) = (worker.fleet, worker.accounts)
        let existing = fleet.existingDatabases()
        let before = ProcessStatus.current()
        let start = try await worker.ready(share)
        try? await Task.sleep(until: start, clock: .continuous)
        let recorder = ConnectRecorder(expected: accounts.count)
        let ticker = Task {
            while !Task.isCancelled {
                try await Task.sleep(for: .milliseconds(250))
                let state = recorder.snapshot
                WorkerChannel.emit(["event": "progress", "connected": .integer(Int64(state.connected)),
                                    "failed": .integer(Int64(state.failures.values.reduce(0, +)))])
            }
        }
        await fleet.connectAll(rate: rate, recorder: recorder)
        ticker.cancel()
        _ = await ticker.result
        var outcome = WorkerOutcome(share: share, pid: getpid(), state: recorder.snapshot, start: start)
        outcome.existingDatabases = existing
        outcome.before = before
        outcome.atConnected = ProcessStatus.current()
        await WorkerChannel.measured()
        outcome.stillConnected = fleet.connectedCount()
        let disconnecting = ContinuousClock.now
        await fleet.shutdown()
        outcome.disconnectNs = WorkerOutcome.nanoseconds(ContinuousClock.now - disconnecting)
        return outcome
    }
}
