import IMJSON

/// What `imsh bench connect` measured.
struct ConnectReport: BenchReport {
    var accounts: Int
    var threads: Int
    var rate: Double?
    var existingDatabases = 0
    var connect = ConnectRecorder.State()
    var memory: MemoryReport
    /// How long the sessions were held, and how many were still connected at its end.
    var hold: (duration: Duration, stillConnected: Int)?
    var disconnect: Duration = .zero
    /// The worker processes of a `--workers` run; empty: the sessions ran in this process.
    var workers: [Worker] = []
    /// A `--server` list's servers and how many sessions each was given.
    var servers: [(url: String, accounts: Int)] = []

    init(accounts: Int, threads: Int, rate: Double?, placement: ServerPlacement) {
        self.accounts = accounts
        self.threads = threads
        self.rate = rate
        memory = MemoryReport(sessions: accounts, placement: placement)
    }

    var failed: Int { connect.failures.values.reduce(0, +) }
    var succeeded: Bool { connect.connected == accounts && (hold.map { $0.stillConnected == accounts } ?? true) }

    /// From the first connect call to the last session connected.
    var span: Duration? {
        guard let first = connect.firstStart, let last = connect.lastConnected else { return nil }
        return last - first
    }

    var latency: LatencySummary? { LatencySummary(connect.latencies) }

    var figures: BenchFigures {
        var figures = BenchFigures()
        figures.latency = BenchFigures.histogram(connect.latencies)
        figures.connected = connect.firstStart.map { BenchFigures.connectedOverTime(connect.connectedAt, from: $0) } ?? []
        figures.failures = BenchFigures.failures(connect.failures)
        return figures
    }

    var json: JSONValue {
        var object: [(String, JSONValue)] = [
            ("type", "result"), ("bench", "connect"), ("server", .string(memory.placement.name)),
            ("accounts", .integer(Int64(accounts))), ("threads", .integer(Int64(threads))),
            ("rateLimit", rate.map { .double($0) } ?? .null),
            ("existingDatabases", .integer(Int64(existingDatabases))),
            ("connected", .integer(Int64(connect.connected))), ("failed", .integer(Int64(failed))),
            ("failures", .object(JSONObject(connect.failures.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))),
            ("allConnectedSeconds", connect.connected == accounts ? span.map { .double(Units.seconds($0)) } ?? .null : .null),
            ("connectsPerSecond", span.map { .double(Units.rate(connect.connected, over: $0)) } ?? .null),
            ("latency", latency?.json ?? .null),
            ("memory", memory.json),
        ] + spreadJSON
        if let hold {
            object.append(("holdSeconds", .double(Units.seconds(hold.duration))))
            object.append(("connectedAfterHold", .integer(Int64(hold.stillConnected))))
        }
        object.append(("disconnectSeconds", .double(Units.seconds(disconnect))))
        object.append(("figures", figures.json))
        return .object(JSONObject(object))
    }

    var lines: [String] {
        let rateText = rate.map { "at most \(Units.oneDecimal($0)) connects/s" } ?? "all at once"
        var lines = [
            "connect      \(accounts) sessions, \(rateText), server \(memory.placement.name), \(threads) engine threads, "
                + "\(existingDatabases) existing databases",
        ]
        if let span {
            let all = connect.connected == accounts ? "all \(accounts)" : "\(connect.connected) of \(accounts)"
            lines.append("connected    \(all) in \(Units.secondsText(span)): \(Units.oneDecimal(Units.rate(connect.connected, over: span))) connects/s")
        } else {
            lines.append("connected    none of \(accounts)")
        }
        if let latency { lines.append("latency      \(latency.text)") }
        let failures = connect.failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        lines.append("failures     " + (failures.isEmpty ? "none" : failures.joined(separator: ", ")))
        lines += spreadLines
        lines += memory.lines
        if let hold {
            lines.append("hold         \(hold.stillConnected) of \(accounts) still connected after \(Units.secondsText(hold.duration))")
        }
        lines.append("disconnect   all in \(Units.secondsText(disconnect))")
        return lines
    }
}
