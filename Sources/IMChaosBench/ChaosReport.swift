import IMBench
import IMJSON

/// What `imsh bench chaos` found: the faults it injected, the messages and where they went,
/// the longest overlap of two mobile devices, and every violation of what the service promises.
struct ChaosReport: BenchReport {
    var seed: UInt64
    var duration: Duration
    var nodes: Int
    var users: Int
    var faults: [String: Int] = [:]
    var sent = 0
    var acknowledged = 0
    var refused = 0
    var sendErrors = 0
    /// Receipts by the applications of the recipients' devices (each device counts).
    var delivered = 0
    /// Acknowledged messages that a device of their recipient never got (a device that came back).
    var lost = 0
    /// Messages a device that did not come back lacks (an unsettled run): not judged.
    var unchecked = 0
    /// Messages an application got twice on one device.
    var duplicated = 0
    /// Resends each device's engine recognised by uid and dropped (not a violation: counted apart).
    var droppedResends = 0
    var outOfOrder = 0
    var longestOverlap: Duration = .zero
    var overlapUser = ""
    /// The longest overlap of a clean user whose device was on a node frozen or killed meanwhile.
    var frozenOverlap: Duration = .zero
    /// On the faulty proxies, where a client learns late that it was taken over.
    var longestFaultyOverlap: Duration = .zero
    /// The longest a device of a clean user stayed online after a block or deactivation answered.
    var longestStay: Duration = .zero
    /// The same on a node cut off from PostgreSQL (until it was back) or frozen or killed.
    var excusedStay: Duration = .zero
    /// Node heaps: the largest sample of each, MiB.
    var nodeHeaps: [String] = []
    /// Node faults and API calls that went wrong (not violations: the run's own trouble).
    var troubles: [String] = []
    var violations: [String] = []
    var settled = false
    /// When each phase of the settling ended, from its start: every user's pc and one mobile
    /// device back with their messages, then every device.
    var settlePhases: [Duration] = []
    var figures = BenchFigures()

    var succeeded: Bool { violations.isEmpty }

    var json: JSONValue {
        [
            "type": "result", "bench": "chaos", "seed": .integer(Int64(bitPattern: seed)),
            "durationSeconds": .double(Units.seconds(duration)), "nodes": .integer(Int64(nodes)), "users": .integer(Int64(users)),
            "faults": .object(JSONObject(faults.sorted { $0.key < $1.key }.map { ($0.key, .integer(Int64($0.value))) })),
            "sent": .integer(Int64(sent)), "acknowledged": .integer(Int64(acknowledged)), "refused": .integer(Int64(refused)),
            "sendErrors": .integer(Int64(sendErrors)), "delivered": .integer(Int64(delivered)), "lost": .integer(Int64(lost)),
            "unchecked": .integer(Int64(unchecked)),
            "duplicated": .integer(Int64(duplicated)), "droppedResends": .integer(Int64(droppedResends)), "outOfOrder": .integer(Int64(outOfOrder)),
            "longestOverlapSeconds": .double(Units.seconds(longestOverlap)),
            "longestFaultyOverlapSeconds": .double(Units.seconds(longestFaultyOverlap)),
            "longestOverlapBesideADownNodeSeconds": .double(Units.seconds(frozenOverlap)),
            "longestStayAfterHoldSeconds": .double(Units.seconds(longestStay)),
            "longestStayOnANodeCutOffSeconds": .double(Units.seconds(excusedStay)), "settled": .bool(settled),
            "settlePhasesSeconds": .array(settlePhases.map { .double(Units.seconds($0)) }),
            "nodeHeaps": .array(nodeHeaps.map { .string($0) }), "troubles": .array(troubles.map { .string($0) }),
            "violations": .array(violations.map { .string($0) }),
        ]
    }

    var lines: [String] {
        let faultCount = faults.filter { $0.key != "client link cut made" }.values.reduce(0, +)
        var lines = [
            "chaos        \(nodes) nodes, \(users) users (\(3 * users) devices), \(Units.secondsText(duration)), seed \(seed)",
            "faults       \(faultCount) injected: " + faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
            "messages     \(sent) sent, \(acknowledged) acknowledged, \(refused) refused, \(sendErrors) send calls failed",
            "delivered    \(delivered) to the applications of the recipients' devices (each of 3 devices counts)",
            "lost         \(lost)" + (unchecked > 0 ? " (and \(unchecked) deliveries to devices that did not come back, unchecked)" : ""),
            "duplicated   \(duplicated) to an application; \(droppedResends) resends dropped by the engines (a delivery whose uid the device had)",
            "order        \(outOfOrder) out of order (per sender and recipient device)",
            "overlap      longest \(Units.secondsText(longestOverlap)) with two mobile devices online\(overlapUser.isEmpty ? "" : " (\(overlapUser))"); "
                + "\(Units.secondsText(longestFaultyOverlap)) through faulty links",
            "             \(Units.secondsText(frozenOverlap)) beside a node frozen or killed (its client waits for its heartbeat) "
                + "or cut off from PostgreSQL (until it is back)",
            "holds        devices gone at most \(Units.secondsText(longestStay)) after a block or deactivation answered; "
                + "\(Units.secondsText(excusedStay)) on a node cut off from PostgreSQL, frozen or killed",
            "nodes        heap peaks " + nodeHeaps.joined(separator: ", "),
            "settled      \(settled ? "every device back with every message" : "not within the limit")"
                + (settlePhases.isEmpty ? "" : " (" + zip(["pc and a mobile device", "all"], settlePhases)
                    .map { "\($0) by \(Units.secondsText($1))" }.joined(separator: ", ") + ")"),
        ]
        lines += troubles.prefix(10).map { "trouble      \($0)" }
        lines += violations.prefix(30).map { "VIOLATION    \($0)" }
        if violations.count > 30 { lines.append("VIOLATION    ... \(violations.count - 30) more") }
        lines.append("result       \(violations.isEmpty ? "no violation" : "\(violations.count) violations") (seed \(seed))")
        return lines
    }
}
