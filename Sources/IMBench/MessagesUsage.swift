import IMJSON
import IMProcess

/// What sending and draining the messages cost in CPU time and context switches: this
/// process (the sessions, with the bench's own scheduling and bookkeeping, and the server when
/// it is embedded) and a spawned imserver. Not measured with `--workers`.
///
/// The client's figure carries the bench's own pacing and reading (on Swift's threads) as
/// well as the sessions' work, so it also gives the share of the session engine's event loops
/// (`ProcessUsage.namedThreads`), where every session sends, receives and stores.
struct MessagesUsage: Sendable {
    var client: ProcessUsage?
    var server: ProcessUsage?
    /// The server ran in this process, so `client` holds its share too.
    var serverInProcess = false

    /// CPU microseconds and context switches per message for `usage`, over `messages`.
    private static func perMessage(
        _ usage: ProcessUsage?, _ messages: Int
    ) -> (cpu: Double, switches: Double, loops: Double?)? {
        guard let usage, messages > 0 else { return nil }
        let microseconds = { (cpu: Duration) in Units.milliseconds(cpu) * 1000 / Double(messages) }
        return (microseconds(usage.cpu), Double(usage.contextSwitches) / Double(messages), usage.namedThreads.map(microseconds))
    }

    func line(messages: Int) -> String? {
        var parts: [String] = []
        if let client = Self.perMessage(client, messages) {
            let whose = serverInProcess ? "this process, server included" : "this process"
            let loops = client.loops.map { " (the engine's event loops \(Units.oneDecimal($0)))" } ?? ""
            parts.append("\(whose) \(Units.oneDecimal(client.cpu)) us\(loops) and \(Units.oneDecimal(client.switches)) context switches")
        }
        if let server = Self.perMessage(server, messages) {
            parts.append("imserver \(Units.oneDecimal(server.cpu)) us and \(Units.oneDecimal(server.switches))")
        }
        return parts.isEmpty ? nil : "cpu          " + parts.joined(separator: "; ") + " per message received"
    }

    func json(messages: Int) -> JSONValue {
        func object(_ usage: ProcessUsage?) -> JSONValue {
            guard let figures = Self.perMessage(usage, messages) else { return .null }
            var object = JSONObject([
                ("cpuMicrosecondsPerMessage", .double(Units.rounded(figures.cpu, places: 2))),
                ("contextSwitchesPerMessage", .double(Units.rounded(figures.switches, places: 2))),
            ])
            if let loops = figures.loops { object["eventLoopCpuMicrosecondsPerMessage"] = .double(Units.rounded(loops, places: 2)) }
            return .object(object)
        }
        return ["client": object(client), "server": object(server), "serverInProcess": .bool(serverInProcess)]
    }
}
