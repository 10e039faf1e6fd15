import IMBench
import IMJSON
import IMProcess

/// What `imsh bench server` measured: the clients' view of every message, and the server's
/// CPU, context switches and memory when it runs on this machine.
struct ServerReport: BenchReport {
    var target: String
    var pairs: Int
    /// Offered messages per second; nil: saturated.
    var rate: Double?
    var window: Int
    var duration: Duration
    var ledger = LoadLedger.State()
    var serverBefore: ProcessStatus?
    var serverConnected: ProcessStatus?
    /// Pairs logged in before `serverFirstWave` was read; the rest came after.
    var firstWavePairs = 0
    var serverFirstWave: ProcessStatus?
    /// What the message phase cost the server.
    var serverUsage: ProcessUsage?

    var refused: Int { ledger.refused.values.reduce(0, +) }
    var unique: Int { ledger.deliveredIDs.count }

    var succeeded: Bool { unique > 0 && ledger.lost == 0 && ledger.duplicates == 0 && refused == 0 }

    /// From the first publish to the last delivery.
    var elapsed: Duration {
        guard let first = ledger.firstPublish, let last = ledger.lastDelivery, last > first else { return .zero }
        return last - first
    }

    var perSecond: Double { Units.rate(unique, over: elapsed) }

    /// Server CPU per delivered message, in microseconds.
    var cpuPerMessage: Double? {
        guard let serverUsage, unique > 0 else { return nil }
        return Units.milliseconds(serverUsage.cpu) * 1000 / Double(unique)
    }

    var switchesPerMessage: Double? {
        guard let serverUsage, unique > 0 else { return nil }
        return Double(serverUsage.contextSwitches) / Double(unique)
    }

    /// The server's resident memory per connection the bench opened, in KiB.
    var memoryPerConnection: Double? {
        guard let before = serverBefore, let connected = serverConnected else { return nil }
        return Double(connected.residentKB - before.residentKB) / Double(2 * pairs)
    }

    /// KiB per connection of the second wave alone: a connection's own cost, without what the
    /// server pays once at its first logins (code paged in, caches). Servers differ most there: one
    /// linked with SQLite and OpenSSL pages in megabytes of code then, a small C broker next to none.
    var memoryPerLaterConnection: Double? {
        guard let first = serverFirstWave, let connected = serverConnected, firstWavePairs < pairs else { return nil }
        return Double(connected.residentKB - first.residentKB) / Double(2 * (pairs - firstWavePairs))
    }

    var offered: String { rate.map { "\(Units.oneDecimal($0)) messages/s offered" } ?? "saturated, \(window) in flight per publisher" }

    var figures: BenchFigures {
        var figures = BenchFigures()
        figures.latencyName = "message latency (scheduled send to delivery)"
        figures.latency = BenchFigures.histogram(ledger.latencies)
        // A stall of a fraction of a second shows as a second with a high p99 among low ones.
        figures.perSecond = ledger.firstPublish.map { start in
            BenchFigures.perSecond(zip(ledger.latencyTimes, ledger.latencies).map { (at: $0, latency: $1) }, from: start)
        }
        figures.failures = BenchFigures.failures(ledger.refused.merging(ledger.problems) { $0 + $1 })
        return figures
    }

    var json: JSONValue {
        var object: [(String, JSONValue)] = [
            ("type", "result"), ("bench", "server"), ("target", .string(target)), ("pairs", .integer(Int64(pairs))),
            ("rate", rate.map { .double($0) } ?? .null), ("window", .integer(Int64(window))),
            ("duration", .double(Units.seconds(duration))),
            ("published", .integer(Int64(ledger.published))), ("acknowledged", .integer(Int64(ledger.acknowledged))),
            ("delivered", .integer(Int64(unique))), ("lost", .integer(Int64(ledger.lost))),
            ("duplicated", .integer(Int64(ledger.duplicates))),
            ("refused", .object(JSONObject(ledger.refused.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))),
            ("problems", .object(JSONObject(ledger.problems.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))),
            ("seconds", .double(Units.seconds(elapsed))), ("messagesPerSecond", .double(Units.rounded(perSecond, places: 1))),
            ("latency", LatencySummary(ledger.latencies)?.json ?? .null),
        ]
        var server: [(String, JSONValue)] = []
        if let cpuPerMessage { server.append(("cpuMicrosecondsPerMessage", .double(Units.rounded(cpuPerMessage, places: 2)))) }
        if let switchesPerMessage { server.append(("contextSwitchesPerMessage", .double(Units.rounded(switchesPerMessage, places: 2)))) }
        if let memoryPerConnection { server.append(("kibPerConnection", .double(Units.rounded(memoryPerConnection, places: 2)))) }
        if let memoryPerLaterConnection {
            server.append(("kibPerLaterConnection", .double(Units.rounded(memoryPerLaterConnection, places: 2))))
            server.append(("firstWaveConnections", .integer(Int64(2 * firstWavePairs))))
        }
        object.append(("server", server.isEmpty ? .null : .object(JSONObject(server))))
        object.append(("figures", figures.json))
        return .object(JSONObject(object))
    }

    var lines: [String] {
        var lines = [
            "server       \(target), \(pairs) pairs, \(offered), \(Units.secondsText(duration))",
            "messages     \(unique) delivered of \(ledger.published) published (\(ledger.acknowledged) acknowledged) in "
                + "\(Units.secondsText(elapsed)): \(Units.oneDecimal(perSecond))/s",
            "lost         \(ledger.lost), duplicated \(ledger.duplicates), refused \(refused)",
        ]
        if let latency = LatencySummary(ledger.latencies) { lines.append("latency      \(latency.text)") }
        let problems = ledger.problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        if !problems.isEmpty { lines.append("problems     " + problems.joined(separator: ", ")) }
        if let cpuPerMessage, let switchesPerMessage {
            lines.append("server cpu   \(Units.oneDecimal(cpuPerMessage)) us and \(Units.oneDecimal(switchesPerMessage)) context switches per message")
        }
        if let memoryPerConnection {
            let later = memoryPerLaterConnection.map {
                ", \(Units.kibibytesText($0)) each after the first \(2 * firstWavePairs)"
            } ?? ""
            lines.append("server mem   \(Units.kibibytesText(memoryPerConnection)) per connection\(later)")
        }
        return lines
    }
}
