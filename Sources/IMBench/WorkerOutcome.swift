import IMJSON
import IMProcess

/// What one worker process of `imsh bench connect --workers N` measured, raw: every session's
/// latency and time of connection, so that the parent computes its figures over all sessions.
///
/// Times are nanoseconds from the start the parent handed out, on CLOCK_MONOTONIC, which every
/// process of the machine shares. The worker prints it as its one `--json` result line.
struct WorkerOutcome: BenchReport {
    var share: WorkerShare
    var pid: Int32
    var existingDatabases = 0
    var started = 0
    var connected = 0
    var latenciesNs: [Int64] = []
    var connectedAtNs: [Int64] = []
    var failures: [String: Int] = [:]
    var connectedByServer: [String: Int] = [:]
    var firstStartNs: Int64?
    var lastConnectedNs: Int64?
    var before: ProcessStatus?
    var atConnected: ProcessStatus?
    /// Sessions still connected when the parent said stop.
    var stillConnected = 0
    var disconnectNs: Int64 = 0

    /// A worker's result is data for its parent, which judges the run.
    var succeeded: Bool { true }
    var lines: [String] { [json.jsonText] }
    var figures: BenchFigures { BenchFigures() }

    /// The recorder's state, its instants made relative to `start`.
    init(share: WorkerShare, pid: Int32, state: ConnectRecorder.State, start: ContinuousClock.Instant) {
        self.share = share
        self.pid = pid
        func since(_ instant: ContinuousClock.Instant) -> Int64 { Self.nanoseconds(instant - start) }
        started = state.started
        connected = state.connected
        latenciesNs = state.latencies.map(Self.nanoseconds)
        connectedAtNs = state.connectedAt.map(since)
        failures = state.failures
        connectedByServer = state.connectedByServer
        firstStartNs = state.firstStart.map(since)
        lastConnectedNs = state.lastConnected.map(since)
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    var json: JSONValue {
        func counts(_ map: [String: Int]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) }))
        }
        return .object(JSONObject([
            ("type", "worker"), ("worker", .string(share.description)), ("pid", .integer(Int64(pid))),
            ("existingDatabases", .integer(Int64(existingDatabases))),
            ("started", .integer(Int64(started))), ("connected", .integer(Int64(connected))),
            ("latenciesNs", .array(latenciesNs.map { .integer($0) })), ("connectedAtNs", .array(connectedAtNs.map { .integer($0) })),
            ("failures", counts(failures)), ("connectedByServer", counts(connectedByServer)),
            ("firstStartNs", firstStartNs.map { .integer($0) } ?? .null), ("lastConnectedNs", lastConnectedNs.map { .integer($0) } ?? .null),
            ("before", before?.json ?? .null), ("atConnected", atConnected?.json ?? .null),
            ("stillConnected", .integer(Int64(stillConnected))), ("disconnectNs", .integer(disconnectNs)),
        ]))
    }

    /// Reads a worker's result line; nil when it is not one.
    init?(json object: JSONObject) {
        guard object["type"] == "worker", let shareText = object["worker"]?.stringValue, let share = WorkerShare(shareText),
              let pid = object["pid"]?.integerValue
        else { return nil }
        func integer(_ name: String) -> Int { Int(object[name]?.integerValue ?? 0) }
        func integers(_ name: String) -> [Int64] {
            guard case .array(let values) = object[name] else { return [] }
            return values.compactMap(\.integerValue)
        }
        func counts(_ name: String) -> [String: Int] {
            var map: [String: Int] = [:]
            object[name]?.objectValue?.forEachMember { key, value in map[key] = Int(value.integerValue ?? 0) }
            return map
        }
        self.share = share
        self.pid = Int32(truncatingIfNeeded: pid)
        existingDatabases = integer("existingDatabases")
        started = integer("started")
        connected = integer("connected")
        latenciesNs = integers("latenciesNs")
        connectedAtNs = integers("connectedAtNs")
        failures = counts("failures")
        connectedByServer = counts("connectedByServer")
        firstStartNs = object["firstStartNs"]?.integerValue
        lastConnectedNs = object["lastConnectedNs"]?.integerValue
        before = ProcessStatus(json: object["before"])
        atConnected = ProcessStatus(json: object["atConnected"])
        stillConnected = integer("stillConnected")
        disconnectNs = Int64(integer("disconnectNs"))
    }
}
