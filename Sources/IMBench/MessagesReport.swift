import IMJSON

/// What `imsh bench messages` measured.
struct MessagesReport: BenchReport {
    var pairs: Int
    var rate: Double
    var duration: Duration
    var placement: ServerPlacement
    var ledger = MessageLedger.State()
    var stored = StoredCopies()
    /// CPU and context switches of sending and draining; not measured with workers.
    var usage = MessagesUsage()
    /// How long sessions were away while sending and draining.
    var away = AwayTimes()
    /// The worker processes of a `--workers` run; empty: the sessions ran in this process.
    var workers: [Worker] = []

    init(pairs: Int, rate: Double, duration: Duration, placement: ServerPlacement) {
        self.pairs = pairs
        self.rate = rate
        self.duration = duration
        self.placement = placement
    }

    var lost: Int { ledger.lost }
    /// A message stored twice in a receiver's database, or delivered twice to its session.
    var duplicated: Int { max(stored.duplicates, ledger.redelivered) }
    var refused: Int { ledger.refusals }
    var sendErrors: Int { ledger.failedCalls }

    var succeeded: Bool {
        ledger.sent > 0 && lost == 0 && duplicated == 0 && refused == 0 && sendErrors == 0 && ledger.unanswered == 0
            && ledger.received == ledger.acknowledged && stored.unreadable.isEmpty
    }

    /// From the first send call to the last message received.
    var span: Duration? {
        guard let first = ledger.firstSend, let last = ledger.lastReceive else { return nil }
        return last - first
    }

    /// From the first send call to the end of the last.
    var sendSpan: Duration? {
        guard let first = ledger.firstSend, let last = ledger.lastSend else { return nil }
        return last - first
    }

    var latency: LatencySummary? { LatencySummary(ledger.latencies) }

    var figures: BenchFigures {
        var figures = BenchFigures()
        figures.latencyName = "message latency"
        figures.latency = BenchFigures.histogram(ledger.latencies)
        figures.perSecond = ledger.firstSend.map { start in
            BenchFigures.perSecond(zip(ledger.latencyTimes, ledger.latencies).map { (at: $0, latency: $1) }, from: start)
        } ?? []
        var failures = ledger.sendErrors
        failures.merge(ledger.refused.map { ("refused \($0.key)", $0.value) }) { $0 + $1 }
        figures.failures = BenchFigures.failures(failures)
        return figures
    }

    private static func counts(_ counts: [String: Int]) -> JSONValue {
        .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
    }

    var json: JSONValue {
        [
            "type": "result", "bench": "messages", "server": .string(placement.name),
            "pairs": .integer(Int64(pairs)), "rate": .double(rate), "durationSeconds": .double(Units.seconds(duration)),
            "sent": .integer(Int64(ledger.sent)), "sendErrors": Self.counts(ledger.sendErrors),
            "acknowledged": .integer(Int64(ledger.acknowledged)), "refused": Self.counts(ledger.refused),
            "unanswered": .integer(Int64(ledger.unanswered)),
            "received": .integer(Int64(ledger.received)), "storedAtReceivers": .integer(Int64(stored.rows)),
            "lost": .integer(Int64(lost)), "duplicated": .integer(Int64(duplicated)),
            "sendRate": sendSpan.map { .double(Units.rate(ledger.sent, over: $0)) } ?? .null,
            "throughput": span.map { .double(Units.rate(ledger.received, over: $0)) } ?? .null,
            "latency": latency?.json ?? .null, "away": away.json, "usage": workers.isEmpty ? usage.json(messages: ledger.received) : .null,
            "workers": workers.isEmpty ? .null : workersJSON, "figures": figures.json,
        ]
    }

    var lines: [String] {
        var lines = [
            "messages     \(pairs) pairs, \(Units.oneDecimal(rate)) messages/s for \(Units.secondsText(duration)), server \(placement.name)",
            "sent         \(ledger.sent)" + (sendSpan.map { " at \(Units.oneDecimal(Units.rate(ledger.sent, over: $0))) messages/s" } ?? ""),
            "acknowledged \(ledger.acknowledged), refused \(refused), unanswered \(ledger.unanswered)",
            "received     \(ledger.received) (\(stored.rows) stored at the receivers)"
                + (span.map { ": \(Units.oneDecimal(Units.rate(ledger.received, over: $0))) messages/s end to end" } ?? ""),
            "lost         \(lost)",
            "duplicated   \(duplicated)",
        ]
        if let latency { lines.append("latency      \(latency.text)") }
        lines.append(away.line)
        if workers.isEmpty, let line = usage.line(messages: ledger.received) { lines.append(line) }
        for (reason, count) in ledger.sendErrors.sorted(by: { $0.key < $1.key }) { lines.append("send error   \(reason): \(count)") }
        for (reason, count) in ledger.refused.sorted(by: { $0.key < $1.key }) { lines.append("refused      \(reason): \(count)") }
        for problem in stored.unreadable { lines.append("unreadable   \(problem)") }
        lines += workerLines
        return lines
    }
}
