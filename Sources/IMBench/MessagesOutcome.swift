import IMJSON

/// What one worker process of `imsh bench messages --workers N` measured, raw: its ledger (every
/// latency, every acknowledged and received message id) and what its receivers stored, so that
/// the parent computes lost, duplicated and the percentiles over all pairs; and each time its
/// sessions were away.
///
/// Times are nanoseconds from the common start, on the machine's CLOCK_MONOTONIC.
struct MessagesOutcome: BenchReport {
    var share: WorkerShare
    var pid: Int32
    var ledger: MessageLedger.State
    var stored: StoredCopies
    var away: AwayTimes
    /// The instant the times count from, in the process that holds this outcome.
    var start: ContinuousClock.Instant

    var succeeded: Bool { true }
    var lines: [String] { [json.jsonText] }
    var figures: BenchFigures { BenchFigures() }

    init(
        share: WorkerShare, pid: Int32, ledger: MessageLedger.State, stored: StoredCopies, away: AwayTimes, start: ContinuousClock.Instant
    ) {
        self.share = share
        self.pid = pid
        self.ledger = ledger
        self.stored = stored
        self.away = away
        self.start = start
    }

    var json: JSONValue {
        func since(_ instant: ContinuousClock.Instant?) -> JSONValue { instant.map { .integer(WorkerOutcome.nanoseconds($0 - start)) } ?? .null }
        func counts(_ map: [String: Int]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
        }
        return .object(JSONObject([
            ("type", "worker"), ("worker", .string(share.description)), ("pid", .integer(Int64(pid))),
            ("started", .integer(Int64(ledger.started))), ("sent", .integer(Int64(ledger.sent))),
            ("sendErrors", counts(ledger.sendErrors)),
            ("acknowledged", .integer(Int64(ledger.acknowledged))), ("refused", counts(ledger.refused)),
            ("received", .integer(Int64(ledger.received))), ("redelivered", .integer(Int64(ledger.redelivered))),
            ("latenciesNs", .array(ledger.latencies.map { .integer(WorkerOutcome.nanoseconds($0)) })),
            ("latencyTimesNs", .array(ledger.latencyTimes.map { .integer(WorkerOutcome.nanoseconds($0 - start)) })),
            ("acknowledgedIDs", .array(ledger.acknowledgedIDs.sorted().map { .string($0) })),
            ("receivedIDs", .array(ledger.receivedIDs.sorted().map { .string($0) })),
            ("firstSendNs", since(ledger.firstSend)), ("lastSendNs", since(ledger.lastSend)), ("lastReceiveNs", since(ledger.lastReceive)),
            ("storedRows", .integer(Int64(stored.rows))), ("storedDuplicates", .integer(Int64(stored.duplicates))),
            ("unreadable", .array(stored.unreadable.map { .string($0) })),
            ("awayNs", .array(away.durations.map { .integer(WorkerOutcome.nanoseconds($0)) })),
            ("awaySessions", .integer(Int64(away.sessions))), ("stillAway", .integer(Int64(away.stillAway))),
        ]))
    }

    /// Reads a worker's result line, its times made instants after `start`; nil when it is not one.
    init?(json object: JSONObject, start: ContinuousClock.Instant) {
        guard object["type"] == "worker", let text = object["worker"]?.stringValue, let share = WorkerShare(text),
              let pid = object["pid"]?.integerValue
        else { return nil }
        func integer(_ name: String) -> Int { Int(object[name]?.integerValue ?? 0) }
        func list(_ name: String) -> [JSONValue] {
            guard case .array(let values) = object[name] else { return [] }
            return values
        }
        func counts(_ name: String) -> [String: Int] {
            var map: [String: Int] = [:]
            object[name]?.objectValue?.forEachMember { key, value in map[key] = Int(value.integerValue ?? 0) }
            return map
        }
        func instant(_ name: String) -> ContinuousClock.Instant? { object[name]?.integerValue.map { start + .nanoseconds($0) } }
        var ledger = MessageLedger.State()
        ledger.started = integer("started")
        ledger.sent = integer("sent")
        ledger.sendErrors = counts("sendErrors")
        ledger.acknowledged = integer("acknowledged")
        ledger.refused = counts("refused")
        ledger.received = integer("received")
        ledger.redelivered = integer("redelivered")
        ledger.latencies = list("latenciesNs").compactMap(\.integerValue).map { .nanoseconds($0) }
        ledger.latencyTimes = list("latencyTimesNs").compactMap(\.integerValue).map { start + .nanoseconds($0) }
        ledger.acknowledgedIDs = Set(list("acknowledgedIDs").compactMap(\.stringValue))
        ledger.receivedIDs = Set(list("receivedIDs").compactMap(\.stringValue))
        ledger.firstSend = instant("firstSendNs")
        ledger.lastSend = instant("lastSendNs")
        ledger.lastReceive = instant("lastReceiveNs")
        let stored = StoredCopies(
            rows: integer("storedRows"), duplicates: integer("storedDuplicates"), unreadable: list("unreadable").compactMap(\.stringValue))
        let away = AwayTimes(
            durations: list("awayNs").compactMap(\.integerValue).map { .nanoseconds($0) }, sessions: integer("awaySessions"),
            stillAway: integer("stillAway"))
        self.init(share: share, pid: Int32(truncatingIfNeeded: pid), ledger: ledger, stored: stored, away: away, start: start)
    }
}
