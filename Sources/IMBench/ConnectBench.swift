import IMCommandLine
import IMHTTPClient
import IMProcess

/// `imsh bench connect`: N accounts connected as N full sessions of one engine, measured.
struct ConnectBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "connect",
        summary: "connect many accounts at once and measure time, latency, memory and descriptors",
        usage: "--accounts N [--profile P] [--rate R] [--hold S] [--workers N] [--server embedded|spawn|URL[,URL...] [--app-key K --app-secret S]] "
            + "[--data DIR] [--threads T] [--timeout S] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--accounts", value: "N", help: "how many sessions (new users bench0...; with --profile, the first N of its accounts)"),
            OptionSpec("--profile", value: "P", completion: .profileNames, help: "use profile P's server and app, and its accounts when it has some"),
            OptionSpec("--profiles", value: "DIR", help: "where profiles are (else $IMSH_PROFILES, ./profiles, ~/.config/imsh/profiles)"),
            OptionSpec("--rate", value: "R", help: "start at most R connects per second (default: all at once)"),
            OptionSpec("--hold", value: "S", help: "keep the sessions connected S seconds before disconnecting (default 0)"),
        ] + WorkerOptions.options + CommonOptions.appOptions,
        epilogue: """
            Creates the users through the server API, gives each session its own SQLite database,
            connects them all and reports: the time until all were connected, connects per second,
            connect latency (connect call to connected) p50/p90/p99/max, failures by code, VmRSS
            before and at all connected (total, per session, anon/file/shmem), open descriptors,
            and for a spawned imserver its VmRSS and descriptors. With the server embedded, its
            memory and descriptors count in imsh's.

            With --server URL,URL,... session i connects to server i mod count, with tokens of
            --app-key signed here; the report gives each server's count. With --workers N the
            accounts are split into N contiguous shares, one per worker process (imsh itself),
            each connecting its share from one common start; the report is computed over all
            sessions (all connected: from the common start to the last connection in any
            worker), adds the workers' memory and descriptors, and names each worker. A worker
            that fails fails the run with what it wrote on standard error.

            exit status: 0 all connected, 1 some did not (or the bench could not run), 2 usage error
            """)

    var common: CommonOptions
    var accounts: Int?
    var profile: String?
    var profiles: String?
    var rate: Double?
    var hold: Duration = .zero
    var spread = WorkerOptions()

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader, serverList: true)

        accounts = try reader.integer("--accounts", in: 1...1_000_000)
        profile = reader.parsed.value("--profile")
        profiles = reader.parsed.value("--profiles")
        rate = try reader.number("--rate", in: 0.001...10_000_000)
        hold = try reader.seconds("--hold", in: 0...86_400) ?? .zero
        if profile == nil { _ = try reader.required("--accounts", accounts) }
        if profile != nil, reader.parsed.value("--server") != nil {
            throw UsageError("give --profile or --server, not both: the profile names its server")
        }
        if profile == nil, profiles != nil { throw UsageError("--profiles only goes with --profile") }
        spread = try WorkerOptions(reader, common: common, profile: profile)
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        if let worker = spread.worker { return try await ConnectWorker.run(worker, common: common, rate: rate) }
        if let workers = spread.workers { return try await runWorkers(workers, progress: progress) }
        let target = try profile.map { name throws(BenchError) in try ProfileTarget.load(name, directory: profiles) }
        let sessions = accounts ?? target?.profile.accounts.count ?? 0
        guard sessions > 0 else { throw BenchError("profile \(profile ?? "") has no accounts: give --accounts N to create users") }
        return try await BenchStage.run(common, sessions: sessions, profile: target, progress: progress) { stage throws(BenchError) in
            var chosen: [BenchAccount] = []
            if let target {
                chosen = try await target.accounts(limit: accounts, dataDirectory: stage.directory.clients, server: stage.server)
            }
            // New users on a profile's server connect as its accounts would: with its TLS settings.
            if chosen.isEmpty { chosen = try await stage.users("bench", count: sessions, tls: target?.profile.tls) }
            return try await measure(chosen, on: stage)
        }
    }

    private func measure(_ accounts: [BenchAccount], on stage: BenchStage) async throws(BenchError) -> ConnectReport {
        let fleet = try await stage.fleet(accounts)
        var report = ConnectReport(accounts: accounts.count, threads: common.threads, rate: rate,
                                   placement: await stage.server.placement)
        report.servers = ConnectReport.shares(accounts)
        report.existingDatabases = fleet.existingDatabases()
        report.memory.serverBefore = await stage.serverStatus()
        report.memory.before = ProcessStatus.current()
        report.connect = await stage.connect(fleet, rate: rate).snapshot
        report.memory.connected = ProcessStatus.current()
        report.memory.serverConnected = await stage.serverStatus()
        if hold > .zero {
            let end = ContinuousClock.now + hold
            await stage.progress.during("hold", status: { "\(Int(BenchClock.seconds(ContinuousClock.now.duration(to: end)).rounded())) s left" }) {
                try? await Task.sleep(until: end, clock: .continuous)
            }
            report.hold = (hold, fleet.connectedCount())
        }
        let disconnecting = ContinuousClock.now
        await stage.progress.during("disconnect", status: { "closing \(accounts.count) sessions" }) {
            await fleet.shutdown()
        }
        report.disconnect = ContinuousClock.now - disconnecting
        return report
    }

    /// The accounts made here, connected by `count` worker processes.
    private func runWorkers(_ count: Int, progress: ProgressLine) async throws(BenchError) -> ConnectReport {
        let sessions = accounts ?? 0
        try WorkerOptions.checkShare(largest: WorkerShare(index: 1, count: count).range(of: sessions).count)
        return try await BenchStage.run(common, sessions: sessions, clientsInProcess: false, progress: progress) { stage throws(BenchError) in
            let chosen = await stage.pinned(try await stage.users("bench", count: sessions))
            let appKey = await stage.server.appKey
            let lines = (1...count).map { index in
                WorkerChannel.accountsLine(appKey: appKey, chosen[WorkerShare(index: index, count: count).range(of: sessions)])
            }
            var report = ConnectReport(accounts: sessions, threads: common.threads, rate: rate, placement: await stage.server.placement)
            let starting = rate.map { Duration.seconds(Double(sessions) / $0) } ?? .zero
            let pool = WorkerPool(count: count, common: common, measuredWithin: starting + common.timeout)
            let outcome = try await pool.run(
                bench: "connect", options: { share in workerOptions(share, of: sessions) }, lines: lines, on: stage, phase: "connect",
                beforeStart: { report.memory.serverBefore = await stage.serverStatus() },
                afterMeasured: {
                    report.memory.serverConnected = await stage.serverStatus()
                    if hold > .zero {
                        await stage.progress.during("hold", status: { "\(BenchClock.seconds(hold)) s" }) { try? await Task.sleep(for: hold) }
                    }
                })
            let outcomes = outcome.results.compactMap { WorkerOutcome(json: $0) }
            guard outcomes.count == count else { throw BenchError("a worker's result could not be read") }
            report.merge(outcomes, start: outcome.start, hold: hold > .zero ? hold : nil)
            if case .addresses = common.server { report.servers = ConnectReport.shares(chosen) }
            return report
        }
    }

    /// A connect worker's own options: its share of the accounts and of the rate.
    private func workerOptions(_ share: WorkerShare, of sessions: Int) -> [String] {
        ["--accounts", String(share.range(of: sessions).count)] + (rate.map { ["--rate", String($0 / Double(share.count))] } ?? [])
    }
}
