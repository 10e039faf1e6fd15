/// The sessions of one worker process of `--workers N`: the share of accounts its parent wrote,
/// within the worker's own descriptor budget, their databases in a bench directory of its own.
struct WorkerFleet {
    let fleet: SessionFleet
    let accounts: [BenchAccount]
    let directory: BenchDirectory

    /// Reads the share from the parent and makes its sessions; `release()` the directory after.
    static func open(_ share: WorkerShare, common: CommonOptions) async throws(BenchError) -> WorkerFleet {
        let (appKey, accounts) = try await WorkerChannel.readAccounts(share)
        let openDatabases = try DescriptorBudget(sessions: accounts.count, serverInProcess: false).reserve()
        let directory = try BenchDirectory.make(common.data)
        do throws(BenchError) {
            let fleet = try SessionFleet(
                accounts: accounts, appKey: appKey, servers: accounts.compactMap(\.server).prefix(1).map { $0 },
                dataDirectory: directory.clients, threads: common.threads, timeout: common.timeout, jitter: 0,
                openDatabases: openDatabases)
            return WorkerFleet(fleet: fleet, accounts: accounts, directory: directory)
        } catch {
            directory.release()
            throw error
        }
    }

    /// Tells the parent the sessions are ready and returns the common start it answers; on
    /// failure the sessions are shut down first.
    func ready(_ share: WorkerShare) async throws(BenchError) -> ContinuousClock.Instant {
        do {
            return try await WorkerChannel.ready(share)
        } catch {
            await fleet.shutdown()
            throw error
        }
    }
}
