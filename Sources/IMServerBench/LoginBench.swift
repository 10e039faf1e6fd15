import IMBench
import IMCommandLine
import IMProcess
import IMTransport

/// `imsh bench login`: how fast the server takes token-checked logins, and what an idle
/// connection costs it, measured with light clients (no database, no session engine).
struct LoginBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "login",
        summary: "log many light clients in to the server and measure its connects per second and memory per connection",
        usage: "--connections N [--window W] [--hold S] [--server embedded|spawn] [--threads T] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--connections", value: "N", help: "how many clients log in (new users login0...)"),
            OptionSpec("--window", value: "W", help: "logins under way at once (default 256)"),
            OptionSpec("--hold", value: "S", help: "keep the connections open and idle S seconds before closing (default 0)"),
        ],
        epilogue: """
            Each client is a bare MQTT connection: TCP connect, CONNECT with a token from the
            server API, CONNACK; no database and no reconnect loop, so the figures are the
            server's. Reports logins per second, login latency (TCP connect to CONNACK)
            p50/p90/p99/max, refusals by reason code, and the server's VmRSS before and with
            all connections open and idle (with --server spawn: the imserver process alone).

            exit status: 0 all logged in, 1 some did not (or the bench could not run), 2 usage error
            """)

    var common: CommonOptions
    var connections: Int
    var window: Int
    var hold: Duration

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader)
        connections = try reader.required("--connections", try reader.integer("--connections", in: 1...1_000_000))
        window = try reader.integer("--window", in: 1...100_000) ?? 256
        hold = try reader.seconds("--hold", in: 0...86_400) ?? .zero
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        try await BenchStage.run(common, sessions: connections, databases: false, progress: progress) { stage throws(BenchError) in
            let accounts = try await stage.users("login", count: connections)
            let loops: EventLoopGroup
            do {
                loops = try EventLoopGroup(threads: common.threads, name: "imsh-bench-login")
            } catch {
                throw BenchError("cannot start the clients' event loops: \(error)")
            }
            defer { loops.shutdown() }
            let holder = ConnectionHolder()
            defer { holder.closeAll() }
            let address = await stage.server.servers[0]
            let flood = LoginFlood(host: address.host, port: address.port, appKey: await stage.server.appKey, window: window)
            var report = LoginReport(connections: connections, window: window, placement: await stage.server.placement)
            report.memory.serverBefore = await stage.serverStatus()
            report.memory.before = ProcessStatus.current()
            let answered = Counter()
            report.result = await progress.during("login", status: { "\(answered.value)/\(connections) answered" }) {
                await flood.run(accounts, on: loops, holder: holder, answered: { answered.increment() })
            }
            report.memory.connected = ProcessStatus.current()
            report.memory.serverConnected = await stage.serverStatus()
            if hold > .zero {
                try? await Task.sleep(for: hold)
                report.heldOpen = holder.count
            }
            return report
        }
    }
}
