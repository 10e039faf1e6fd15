import IMJSON
import IMProcess

extension ConnectReport {
    /// One worker process of a `--workers` run, as the report names it.
    struct Worker: Sendable {
        var share: WorkerShare
        var pid: Int32
        var accounts: Int
        var connected: Int
        var failed: Int
        /// From the common start to its last session connected, when all of its share did.
        var allConnected: Duration?
    }

    /// The sessions of each server of a `--server` list, in the list's order.
    static func shares(_ accounts: [BenchAccount]) -> [(url: String, accounts: Int)] {
        var shares: [(url: String, accounts: Int)] = []
        for url in accounts.compactMap({ $0.server?.url }) {
            if let index = shares.firstIndex(where: { $0.url == url }) {
                shares[index].accounts += 1
            } else {
                shares.append((url, 1))
            }
        }
        return shares
    }

    /// Takes the workers' raw figures as this report's: times from `start`, latencies and
    /// failures over all sessions, memory and descriptors added up, the slowest disconnect.
    mutating func merge(_ outcomes: [WorkerOutcome], start: ContinuousClock.Instant, hold: Duration?) {
        var state = ConnectRecorder.State()
        var before: ProcessStatus?, atConnected: ProcessStatus?
        var stillConnected = 0
        for outcome in outcomes {
            let instant = { (nanoseconds: Int64) in start + .nanoseconds(nanoseconds) }
            state.started += outcome.started
            state.connected += outcome.connected
            state.latencies += outcome.latenciesNs.map { .nanoseconds($0) }
            state.connectedAt += outcome.connectedAtNs.map(instant)
            state.failures.merge(outcome.failures, uniquingKeysWith: +)
            state.connectedByServer.merge(outcome.connectedByServer, uniquingKeysWith: +)
            if let first = outcome.firstStartNs.map(instant) { state.firstStart = min(state.firstStart ?? first, first) }
            if let last = outcome.lastConnectedNs.map(instant) { state.lastConnected = max(state.lastConnected ?? last, last) }
            before = Self.sum(before, outcome.before)
            atConnected = Self.sum(atConnected, outcome.atConnected)
            stillConnected += outcome.stillConnected
            existingDatabases += outcome.existingDatabases
            disconnect = max(disconnect, .nanoseconds(outcome.disconnectNs))
            let accounts = outcome.share.range(of: self.accounts).count
            workers.append(Worker(
                share: outcome.share, pid: outcome.pid, accounts: accounts, connected: outcome.connected,
                failed: outcome.failures.values.reduce(0, +),
                allConnected: outcome.connected == accounts ? outcome.lastConnectedNs.map { .nanoseconds($0) } : nil))
        }
        connect = state
        memory.before = before
        memory.connected = atConnected
        memory.workers = outcomes.count
        if let hold { self.hold = (hold, stillConnected) }
    }

    private static func sum(_ total: ProcessStatus?, _ one: ProcessStatus?) -> ProcessStatus? {
        guard let one else { return total }
        return total.map { $0 + one } ?? one
    }

    /// `workers` and `servers` members, for the runs that have them.
    var spreadJSON: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if !workers.isEmpty {
            members.append(("workers", .array(workers.map { worker in
                .object(JSONObject([
                    ("worker", .string(worker.share.description)), ("pid", .integer(Int64(worker.pid))),
                    ("accounts", .integer(Int64(worker.accounts))), ("connected", .integer(Int64(worker.connected))),
                    ("failed", .integer(Int64(worker.failed))),
                    ("allConnectedSeconds", worker.allConnected.map { .double(Units.seconds($0)) } ?? .null),
                ]))
            })))
        }
        if !servers.isEmpty {
            members.append(("servers", .array(servers.map { server in
                .object(JSONObject([
                    ("url", .string(server.url)), ("accounts", .integer(Int64(server.accounts))),
                    ("connected", .integer(Int64(connect.connectedByServer[server.url] ?? 0))),
                ]))
            })))
        }
        return members
    }

    /// A line per worker and per server.
    var spreadLines: [String] {
        let workerLines = workers.map { worker in
            let time = worker.allConnected.map { "all in \(Units.secondsText($0)) from the common start" } ?? "\(worker.failed) failed"
            return "\(worker.share) pid \(worker.pid): \(worker.connected) of \(worker.accounts) connected, \(time)"
        }
        let serverLines = servers.map { server in
            "\(server.url): \(connect.connectedByServer[server.url] ?? 0) of \(server.accounts) connected"
        }
        return Self.labelled("workers", workerLines) + Self.labelled("servers", serverLines)
    }

    /// `lines` in the report's column, `label` before the first.
    private static func labelled(_ label: String, _ lines: [String]) -> [String] {
        let column = 13
        return lines.enumerated().map { index, line in
            (index == 0 ? label + String(repeating: " ", count: column - label.count) : String(repeating: " ", count: column)) + line
        }
    }
}
