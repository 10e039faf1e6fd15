import IMJSON
import IMProcess

/// Memory and descriptors before the sessions connected and once they all had: this process,
/// and a spawned server's.
package struct MemoryReport: Sendable {
    package var sessions: Int
    package var before: ProcessStatus?
    package var connected: ProcessStatus?
    package var placement: ServerPlacement
    package var serverBefore: ProcessStatus?
    package var serverConnected: ProcessStatus?
    /// Worker processes whose figures `before` and `connected` add up (`--workers`); 0: this process.
    package var workers = 0

    package init(sessions: Int, placement: ServerPlacement) {
        self.sessions = sessions
        self.placement = placement
    }

    /// Kilobytes of VmRSS the sessions added, per session (the server's share too when it is in the process).
    var perSessionKB: Double? { Self.growth(before, connected, per: sessions) }
    var serverPerConnectionKB: Double? { Self.growth(serverBefore, serverConnected, per: sessions) }

    private static func growth(_ before: ProcessStatus?, _ after: ProcessStatus?, per count: Int) -> Double? {
        guard let before, let after, count > 0 else { return nil }
        return Double(after.residentKB - before.residentKB) / Double(count)
    }

    package var json: JSONValue {
        var object: [(String, JSONValue)] = [
            ("serverInProcess", .bool(placement.isInProcess)), ("workers", .integer(Int64(workers))),
            ("before", Self.json(before)), ("connected", Self.json(connected)),
            ("perSessionKB", perSessionKB.map { .double(Units.rounded($0, places: 2)) } ?? .null),
        ]
        if case .spawned(let pid) = placement {
            object.append(("server", [
                "pid": .integer(Int64(pid)), "before": Self.json(serverBefore), "connected": Self.json(serverConnected),
                "perConnectionKB": serverPerConnectionKB.map { .double(Units.rounded($0, places: 2)) } ?? .null,
            ]))
        }
        return .object(JSONObject(object))
    }

    private static func json(_ status: ProcessStatus?) -> JSONValue {
        status?.json ?? .null
    }

    package var lines: [String] {
        guard let before, let connected else { return ["memory       /proc/self/status not readable"] }
        let whose = workers > 0 ? "\(workers) worker process\(workers == 1 ? "" : "es") added up; the server runs apart"
            : placement.isInProcess ? "client and server in this process" : "client only; the server runs apart"
        var lines = [
            "memory       VmRSS \(Units.mebibytesText(kilobytes: before.residentKB)) before, "
                + "\(Units.mebibytesText(kilobytes: connected.residentKB)) all connected: "
                + "\(Units.kibibytesText(perSessionKB ?? 0)) per session (\(whose))",
            "             at all connected: anon \(Units.mebibytesText(kilobytes: connected.anonymousKB)), "
                + "file \(Units.mebibytesText(kilobytes: connected.fileKB)), shmem \(Units.mebibytesText(kilobytes: connected.sharedKB))",
            "descriptors  \(before.descriptors) before, \(connected.descriptors) all connected: "
                + Units.oneDecimal(Double(connected.descriptors - before.descriptors) / Double(max(1, sessions))) + " per session",
        ]
        if case .spawned(let pid) = placement, let serverBefore, let serverConnected {
            lines.append(
                "server       imserver pid \(pid): VmRSS \(Units.mebibytesText(kilobytes: serverBefore.residentKB)) before, "
                    + "\(Units.mebibytesText(kilobytes: serverConnected.residentKB)) all connected: "
                    + "\(Units.kibibytesText(serverPerConnectionKB ?? 0)) per connection; "
                    + "\(serverConnected.descriptors) descriptors")
        }
        return lines
    }
}
