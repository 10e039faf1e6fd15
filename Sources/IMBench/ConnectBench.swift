import IMCommandLine
import IMHTTPClient

/// `imsh bench connect`: N accounts connected as N full sessions of one engine, measured.
struct ConnectBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "connect",
        summary: "connect many accounts at once and measure time, latency, memory and descriptors",
        usage: "--accounts N [--profile P] [--rate R] [--hold S] [--server embedded|spawn] [--data DIR] [--threads T] [--timeout S] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--accounts", value: "N", help: "how many sessions (new users bench0...; with --profile, the first N of its accounts)"),
            OptionSpec("--profile", value: "P", completion: .profileNames, help: "use profile P's server and app, and its accounts when it has some"),
            OptionSpec("--profiles", value: "DIR", help: "where profiles are (else $IMSH_PROFILES, ./profiles, ~/.config/imsh/profiles)"),
            OptionSpec("--rate", value: "R", help: "start at most R connects per second (default: all at once)"),
            OptionSpec("--hold", value: "S", help: "keep the sessions connected S seconds before disconnecting (default 0)"),
        ],
        epilogue: """
            Creates the users through the server API, gives each session its own SQLite database,
            connects them all and reports: the time until all were connected, connects per second,
            connect latency (connect call to connected) p50/p90/p99/max, failures by code, VmRSS
            before and at all connected (total, per session, anon/file/shmem), open descriptors,
            and for a spawned imserver its VmRSS and descriptors. With the server embedded, its
            memory and descriptors count in imsh's.

            exit status: 0 all connected, 1 some did not (or the bench could not run), 2 usage error
            """)

    var common: CommonOptions
    var accounts: Int?
    var profile: String?
    var profiles: String?
    var rate: Double?
    var hold: Duration = .zero

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader)
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
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
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
}
