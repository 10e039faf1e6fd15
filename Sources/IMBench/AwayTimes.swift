import IMJSON

/// How long sessions were away during a bench: each interruption, from a session leaving
/// `connected` to its being `connected` again (`ConnectionWatch`).
///
/// What a server restart costs the clients besides latency: a node that sends its clients
/// elsewhere with 0x9C (use another server) should keep this short, a plain 0x8B leaves them to
/// their reconnect schedule.
struct AwayTimes: Sendable, Equatable {
    /// Each interruption that ended.
    var durations: [Duration] = []
    /// Sessions that were away at least once.
    var sessions = 0
    /// Sessions still away when the bench stopped watching (not in `durations`).
    var stillAway = 0

    init(durations: [Duration] = [], sessions: Int = 0, stillAway: Int = 0) {
        self.durations = durations
        self.sessions = sessions
        self.stillAway = stillAway
    }

    init(_ state: ConnectionWatch.State) {
        self.init(durations: state.away, sessions: state.dropped.count, stillAway: state.left.count { $0 != nil })
    }

    var interruptions: Int { durations.count + stillAway }

    /// The median is the summary's p50.
    var summary: LatencySummary? { LatencySummary(durations) }

    /// Adds another worker's.
    mutating func merge(_ other: AwayTimes) {
        durations += other.durations
        sessions += other.sessions
        stillAway += other.stillAway
    }

    var json: JSONValue {
        [
            "interruptions": .integer(Int64(interruptions)), "sessions": .integer(Int64(sessions)),
            "stillAway": .integer(Int64(stillAway)),
            "medianMs": summary.map { .double(Units.milliseconds($0.p50)) } ?? .null,
            "maxMs": summary.map { .double(Units.milliseconds($0.max)) } ?? .null,
        ]
    }

    var line: String {
        guard interruptions > 0 else { return "away         no session left connected" }
        var text = "away         \(interruptions) interruptions of \(sessions) sessions"
        if let summary { text += ": median \(Units.millisecondsText(summary.p50)), max \(Units.millisecondsText(summary.max))" }
        if stillAway > 0 { text += ", \(stillAway) still away at the end" }
        return text
    }
}
