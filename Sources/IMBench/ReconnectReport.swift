import IMJSON

#if canImport(Glibc)
import Glibc
#endif

/// What `imsh bench reconnect` measured.
struct ReconnectReport: BenchReport {
    var accounts: Int
    var jitter: Double
    var down: Duration
    var placement: ServerPlacement
    /// The node killed for good (a `--server` list), instead of a restarted server.
    var killed: pid_t?
    /// Sessions that saw the server go.
    var dropped = 0
    /// Connected when the bench stopped waiting.
    var connected = 0
    /// From the server's return until the last session connected (zero for one that beat it).
    var allBack: Duration?
    var firstBack: Duration?
    var peakPerSecond = 0
    /// Sessions connected again over time since the server's return.
    var figures = BenchFigures()

    init(accounts: Int, jitter: Double, down: Duration, placement: ServerPlacement) {
        self.accounts = accounts
        self.jitter = jitter
        self.down = down
        self.placement = placement
    }

    mutating func record(_ state: ConnectionWatch.State, serverBack: ContinuousClock.Instant) {
        dropped = state.dropped.count
        connected = state.count
        let since = state.connections.map { max(.zero, $0 - serverBack) }
        firstBack = since.min()
        allBack = connected == accounts ? since.max() ?? .zero : nil
        peakPerSecond = ConnectionWatch.peakPerSecond(state.connections)
        figures.connected = BenchFigures.connectedOverTime(state.connections, from: serverBack)
    }

    /// Every session back; with a restart every one saw it, after a node's kill at least one.
    var succeeded: Bool { connected == accounts && (killed == nil ? dropped == accounts : dropped > 0) }

    var json: JSONValue {
        [
            "type": "result", "bench": "reconnect", "server": .string(placement.name),
            "accounts": .integer(Int64(accounts)), "jitter": .double(jitter), "downSeconds": .double(Units.seconds(down)),
            "dropped": .integer(Int64(dropped)), "reconnected": .integer(Int64(connected)),
            "firstBackSeconds": firstBack.map { .double(Units.seconds($0)) } ?? .null,
            "allBackSeconds": allBack.map { .double(Units.seconds($0)) } ?? .null,
            "peakConnectsPerSecondClientSide": .integer(Int64(peakPerSecond)), "figures": figures.json,
            "killedPid": killed.map { .integer(Int64($0)) } ?? .null,
        ]
    }

    var lines: [String] {
        let how = placement == .inProcess ? "stopped" : "killed (SIGKILL)"
        let event = killed == nil ? "the server's return" : "the kill"
        var lines = [
            killed.map { "reconnect    \(accounts) sessions, jitter \(jitter), node (pid \($0)) killed (SIGKILL), not restarted" }
                ?? "reconnect    \(accounts) sessions, jitter \(jitter), server \(placement.name) \(how) for \(Units.secondsText(down))",
            "dropped      \(dropped) of \(accounts) saw the server go",
        ]
        if let allBack {
            lines.append("back         all \(accounts) connected \(Units.secondsText(allBack)) after \(event)"
                + (firstBack.map { " (first after \(Units.secondsText($0)))" } ?? ""))
        } else {
            lines.append("back         \(connected) of \(accounts) connected again before the timeout")
        }
        lines.append("peak         \(peakPerSecond) connects in the best second (seen from the client side)")
        return lines
    }
}
