import IMBench
import IMCommandLine
import IMProcess
import IMTransport

#if canImport(Glibc)
import Glibc
#endif

/// `imsh bench server`: any MQTT 5 server (imserver, a stock broker) under QoS 1 load from
/// bare clients, measured from the clients and, when it runs here, from /proc.
struct ServerBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "server",
        summary: "drive any MQTT 5 server with QoS 1 publishers and receivers and measure it",
        usage: "--target URL[,URL...] [--pairs N] [--rate R] [--window W] [--duration S] [--topics im|plain] "
            + "[--app-key K --app-secret S] [--users FILE] [--server-pid PID] [--threads T] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--target", value: "URL[,URL...]", help: "the server: mqtt://HOST[:PORT], or ws://HOST[:PORT][/PATH] for MQTT over WebSocket; several: nodes of one service, each message crossing two"),
            OptionSpec("--pairs", value: "N", help: "publishers, each with its own receiver (default 20)"),
            OptionSpec("--rate", value: "R", help: "offer R messages per second in all, each on a schedule (default: saturated)"),
            OptionSpec("--window", value: "W", help: "saturated: messages each publisher keeps unacknowledged (default 16)"),
            OptionSpec("--duration", value: "S", help: "send for S seconds (default 5)"),
            OptionSpec("--topics", value: "im|plain", help: "im: the contract's topics with tokens (imserver); plain: lb/RECEIVER (any broker)"),
        ] + CommonOptions.appOptions + [
            OptionSpec("--users", value: "FILE", help: "plain: log in as USER:PASSWORD lines of FILE, in turn"),
            OptionSpec("--server-pid", value: "PID", help: "the server's process here: its CPU and context switches per message, memory per connection"),
        ],
        epilogue: """
            Connects 2 x N bare MQTT 5 clients (no database, no session engine), subscribes each
            receiver at QoS 1, then publishes at QoS 1 for the duration: at the offered rate,
            each message on its own schedule (latency counts from the scheduled time, so a
            client that falls behind shows it), or saturated. Reports messages per second
            delivered, latency from scheduled send to delivery p50/p90/p99/max, lost
            (acknowledged, never delivered) and duplicated, refusals; with --server-pid also the
            server's CPU time and context switches per message and its memory per connection:
            over all of them, and over those that log in after the first fifth of the pairs,
            which leaves out what the server pays once at its first logins (code paged in,
            caches). --server and --data do not apply: the server is the target.

            exit status: 0 nothing lost or duplicated, 1 otherwise (or the bench could not run), 2 usage error
            """)

    var common: CommonOptions
    var target: LoadTarget
    var pairs: Int
    var rate: Double?
    var window: Int
    var duration: Duration
    var serverPID: pid_t?

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader)
        if reader.parsed.value("--server") != nil || reader.parsed.value("--data") != nil {
            throw UsageError("--server and --data do not apply to bench server: the server is --target")
        }
        let parsed = reader.parsed
        target = try LoadTarget(
            url: try reader.required("--target", parsed.value("--target")), topics: parsed.value("--topics"),
            appKey: parsed.value("--app-key"), appSecret: parsed.value("--app-secret"), usersFile: parsed.value("--users"))
        pairs = try reader.integer("--pairs", in: 1...5_000) ?? 20
        rate = try reader.number("--rate", in: 1...1_000_000)
        window = try reader.integer("--window", in: 1...10_000) ?? 16
        duration = try reader.seconds("--duration", in: 0.1...3_600) ?? .seconds(5)
        serverPID = try reader.integer("--server-pid", in: 1...Int(Int32.max)).map { pid_t($0) }
        if let serverPID, ProcessStatus.of(pid: serverPID) == nil {
            throw UsageError("--server-pid \(serverPID): no such process here")
        }
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(threads: common.threads, name: "imsh-bench-server")
        } catch {
            throw BenchError("cannot start the clients' event loops: \(error)")
        }
        defer { loops.shutdown() }
        let ledger = LoadLedger()
        var report = ServerReport(target: target.description, pairs: pairs, rate: rate, window: window, duration: duration)
        report.serverBefore = serverPID.flatMap { ProcessStatus.of(pid: $0) }
        let receivers = (0..<pairs).map { "lbr\($0)" }
        let opened = Counter()
        // Two waves, the server's memory read between them: what the second adds is the cost of a
        // connection alone, without what the first login pays once (code paged in, caches, arenas).
        // Without a server to read, one.
        let firstWave = serverPID != nil && pairs >= 5 ? pairs / 5 : pairs
        report.firstWavePairs = firstWave
        let serverPID = self.serverPID
        let (publishers, subscribers, afterFirstWave) = try await progress.during(
            "login", status: { "\(opened.value)/\(2 * pairs) logged in" }
        ) { () async throws(BenchError) in
            let first = try await open(pairs: 0..<firstWave, receivers: receivers, loops: loops, ledger: ledger, opened: opened)
            let afterFirstWave = await Self.settledStatus(of: serverPID)
            do throws(BenchError) {
                let second = try await open(pairs: firstWave..<pairs, receivers: receivers, loops: loops, ledger: ledger, opened: opened)
                return (first.0 + second.0, first.1 + second.1, afterFirstWave)
            } catch {
                (first.0 + first.1).forEach { $0.close() }
                throw error
            }
        }
        report.serverFirstWave = afterFirstWave
        defer { (publishers + subscribers).forEach { $0.close() } }
        report.serverConnected = await Self.settledStatus(of: serverPID)
        let usageBefore = serverPID.flatMap { ProcessUsage.of(pid: $0) }
        let load = LoadRun(
            target: target, publishers: publishers, receivers: receivers, rate: rate, window: window, duration: duration)
        await progress.during("messages", status: { "\(ledger.snapshot.delivered) delivered" }) {
            await load.run(ledger: ledger, start: .now)
            // Drain: what was acknowledged has a little time to arrive before it counts as lost.
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline {
                let state = ledger.snapshot
                if state.deliveredIDs.count >= state.acknowledged && publishers.allSatisfy({ $0.unacknowledged == 0 }) { break }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        if let serverPID, let usageBefore, let after = ProcessUsage.of(pid: serverPID) { report.serverUsage = after.since(usageBefore) }
        report.ledger = ledger.snapshot
        return report
    }

    /// The server's memory once a wave's logins are over: a second later, so that what it held
    /// only while answering them (packets, login batches) counts as given back if it was.
    private static func settledStatus(of pid: pid_t?) async -> ProcessStatus? {
        guard let pid else { return nil }
        try? await Task.sleep(for: .seconds(1))
        return ProcessStatus.of(pid: pid)
    }

    /// Logs the clients of `pairs` in (each pair's receiver subscribed before its publisher starts).
    private func open(
        pairs range: Range<Int>, receivers: [String], loops: EventLoopGroup, ledger: LoadLedger, opened: Counter
    ) async throws(BenchError) -> ([LoadClient], [LoadClient]) {
        let target = self.target
        let pairs = self.pairs
        let results = await withTaskGroup(of: (Int, Bool, Result<LoadClient, BenchError>).self) { group in
            for (isPublisher, pair) in range.map({ (false, $0) }) + range.map({ (true, $0) }) {
                let index = isPublisher ? pairs + pair : pair
                let loop = loops.next()
                group.addTask {
                    let user = isPublisher ? "lbs\(pair)" : receivers[pair]
                    do throws(BenchError) {
                        let client = try await LoadClient.open(
                            try target.connect(user: user, index: index), to: target.server(pair: pair, publisher: isPublisher),
                            on: loop, ledger: ledger)
                        if !isPublisher { try await client.subscribe(target.filter(of: user)) }
                        opened.increment()
                        return (pair, isPublisher, .success(client))
                    } catch {
                        return (pair, isPublisher, .failure(BenchError("\(user): \(error)")))
                    }
                }
            }
            var all: [(Int, Bool, Result<LoadClient, BenchError>)] = []
            for await result in group { all.append(result) }
            return all
        }
        var publishers = [LoadClient?](repeating: nil, count: pairs)
        var subscribers = [LoadClient?](repeating: nil, count: pairs)
        var failure: BenchError?
        for (pair, isPublisher, result) in results {
            switch result {
            case .success(let client):
                if isPublisher { publishers[pair] = client } else { subscribers[pair] = client }
            case .failure(let error):
                failure = failure ?? error
            }
        }
        if let failure {
            (publishers + subscribers).compactMap { $0 }.forEach { $0.close() }
            throw BenchError("a client could not log in to \(target): \(failure)")
        }
        return (publishers.compactMap { $0 }, subscribers.compactMap { $0 })
    }
}
