import IMCommandLine
import IMProcess

#if canImport(Glibc)
import Glibc
#endif

/// `imsh bench reconnect`: N sessions connected, the server taken down and brought back, and
/// the time until all N are connected again.
struct ReconnectBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "reconnect",
        summary: "restart the server under many connected sessions and measure how fast they all return",
        usage: "--accounts N [--down S] [--jitter J] [--server embedded|spawn | --server URL,URL,... --app-key K --app-secret S --kill PID] "
            + "[--data DIR] [--threads T] [--timeout S] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--accounts", value: "N", help: "how many sessions (new users bench0...)"),
            OptionSpec("--down", value: "S", help: "keep the server down S seconds (default 2)"),
            OptionSpec("--jitter", value: "J", help: "the sessions' reconnect jitter, 0 to 1 (default 0.5: waits vary by +-50%)"),
            OptionSpec("--kill", value: "PID", help: "with a --server list: SIGKILL this node (a process here) and time its sessions' move to the others"),
        ] + CommonOptions.appOptions,
        epilogue: """
            Connects N sessions, then takes the server down: the embedded server stops (gracefully,
            DISCONNECT 0x8B: a process cannot kill a part of itself), a spawned imserver gets SIGKILL.
            After --down seconds it starts again on the same port and data. Reports the sessions
            that saw the drop, the time from the server's return until all N were connected again,
            and the peak connect rate: the most sessions that connected within one second, as seen
            from the client side (status changes to connected).

            With --server URL,URL,... (nodes of one service, session i preferring node i mod count
            and failing over to the others in turn) and --kill PID, the node with that process id
            gets SIGKILL and is not started again: the report times its sessions' return on the
            other nodes, from the kill.

            exit status: 0 all N came back, 1 some did not within --timeout, 2 usage error
            """)

    var common: CommonOptions
    var accounts: Int
    var down: Duration
    var jitter: Double
    /// The node to kill, with a list of servers.
    var kill: pid_t?

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader, serverList: true)
        accounts = try reader.required("--accounts", reader.integer("--accounts", in: 1...1_000_000))
        down = try reader.seconds("--down", in: 0...3_600) ?? .seconds(2)
        jitter = try reader.number("--jitter", in: 0...1) ?? 0.5
        kill = try reader.integer("--kill", in: 2...Int(Int32.max)).map { pid_t($0) }
        let listed = if case .addresses = common.server { true } else { false }
        if listed != (kill != nil) {
            throw UsageError(listed ? "--server URL,... needs --kill PID: the bench cannot restart servers it did not start"
                                    : "--kill goes with --server URL,URL,...: the nodes of one service")
        }
        if let kill, ProcessStatus.of(pid: kill) == nil { throw UsageError("--kill \(kill): no such process here") }
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        try await BenchStage.run(common, sessions: accounts, progress: progress) { stage throws(BenchError) in
            let fleet = try await stage.fleet(try await stage.users("bench", count: accounts), jitter: jitter)
            let connect = await stage.connect(fleet).snapshot
            guard connect.connected == accounts else {
                await fleet.shutdown()
                throw BenchError("only \(connect.connected) of \(accounts) sessions connected at first; nothing measured")
            }
            let watch = ConnectionWatch(connectedSessions: accounts)
            watch.watch(fleet.sessions, on: fleet.engine.hub)
            var report = ReconnectReport(accounts: accounts, jitter: jitter, down: down, placement: await stage.server.placement)
            report.killed = kill
            let result = if let kill { await failOver(killing: kill, stage, watch: watch, report: &report) }
                else { await restart(stage, watch: watch, report: &report) }
            watch.stop()
            await fleet.shutdown()
            try result.get()
            return report
        }
    }

    /// Kills one node and waits for the sessions to be back on the others (or `--timeout`).
    private func failOver(killing pid: pid_t, _ stage: BenchStage, watch: ConnectionWatch, report: inout ReconnectReport) async -> Result<Void, BenchError> {
        guard Glibc.kill(pid, SIGKILL) == 0 else { return .failure(BenchError("cannot kill process \(pid): errno \(errno)")) }
        let killed = ContinuousClock.now
        let deadline = killed + common.timeout
        let total = accounts
        // Its sessions see the drop when their sockets close, then race the other nodes.
        await stage.progress.during("failover", status: { "\(watch.connectedCount)/\(total) connected" }) {
            while (watch.snapshot.dropped.isEmpty || watch.connectedCount < total), ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        report.record(watch.snapshot, serverBack: killed)
        return .success(())
    }

    /// Takes the server down, waits, brings it back and waits for the sessions (or `--timeout`).
    private func restart(_ stage: BenchStage, watch: ConnectionWatch, report: inout ReconnectReport) async -> Result<Void, BenchError> {
        do throws(BenchError) {
            let total = accounts
            try await stage.progress.during("down", status: { "\(watch.connectedCount)/\(total) connected" }) { () async throws(BenchError) in
                try await stage.server.takeDown()
                try? await Task.sleep(for: down)
            }
            try await stage.progress.during("restart", status: { "starting the server again" }) { () async throws(BenchError) in
                try await stage.server.bringBack()
            }
            let back = ContinuousClock.now
            let deadline = back + common.timeout
            await stage.progress.during("reconnect", status: { "\(watch.connectedCount)/\(total) connected again" }) {
                while watch.connectedCount < total, ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
            report.record(watch.snapshot, serverBack: back)
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
