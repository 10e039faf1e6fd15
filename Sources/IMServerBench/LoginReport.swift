import IMBench
import IMJSON

/// What `imsh bench login` measured.
struct LoginReport: BenchReport {
    var connections: Int
    var window: Int
    var result = LoginFlood.Result()
    var memory: MemoryReport
    /// Connections still held open at the end of `--hold`.
    var heldOpen: Int?

    init(connections: Int, window: Int, placement: ServerPlacement) {
        self.connections = connections
        self.window = window
        memory = MemoryReport(sessions: connections, placement: placement)
    }

    var succeeded: Bool { result.accepted == connections }
    var perSecond: Double { Units.rate(result.accepted, over: result.elapsed) }

    var figures: BenchFigures {
        var figures = BenchFigures()
        figures.latencyName = "login latency (CONNECT to CONNACK)"
        figures.latency = BenchFigures.histogram(result.latencies)
        figures.failures = BenchFigures.failures(result.failures)
        return figures
    }

    var json: JSONValue {
        var object: [(String, JSONValue)] = [
            ("type", "result"), ("bench", "login"), ("server", .string(memory.placement.name)),
            ("connections", .integer(Int64(connections))), ("window", .integer(Int64(window))),
            ("accepted", .integer(Int64(result.accepted))),
            ("failures", .object(JSONObject(result.failures.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))),
            ("seconds", .double(Units.seconds(result.elapsed))),
            ("loginsPerSecond", .double(Units.rounded(perSecond, places: 1))),
            ("latency", LatencySummary(result.latencies)?.json ?? .null),
            ("memory", memory.json),
        ]
        if let heldOpen { object.append(("openAfterHold", .integer(Int64(heldOpen)))) }
        object.append(("figures", figures.json))
        return .object(JSONObject(object))
    }

    var lines: [String] {
        var lines = [
            "login        \(connections) light clients, \(window) at a time, server \(memory.placement.name)",
            "logged in    \(result.accepted) of \(connections) in \(Units.secondsText(result.elapsed)): "
                + "\(Units.oneDecimal(perSecond)) logins/s",
        ]
        if let latency = LatencySummary(result.latencies) { lines.append("latency      \(latency.text)") }
        let failures = result.failures.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        lines.append("failures     " + (failures.isEmpty ? "none" : failures.joined(separator: ", ")))
        lines += memory.lines
        if let heldOpen { lines.append("hold         \(heldOpen) connections held open") }
        return lines
    }
}
