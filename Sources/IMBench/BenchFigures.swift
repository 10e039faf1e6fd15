import IMJSON
import IMTimeline

/// The series behind a bench's pictures, in its JSON result (`figures`) and its `--report` page.
///
/// A nil member is one the bench does not measure. Times count from the bench's own start
/// (first connect call, first send, the server's return).
package struct BenchFigures: Sendable {
    /// Samples from `fromMs` (inclusive) to `toMs`.
    package struct Bucket: Sendable, Equatable {
        var fromMs: Double
        var toMs: Double
        var count: Int
    }

    /// How many sessions were connected `seconds` after the start.
    struct Point: Sendable, Equatable {
        var seconds: Double
        var connected: Int
    }

    /// Messages received in second `second` (from `second` to `second + 1`) and their latency.
    package struct Second: Sendable, Equatable {
        var second: Int
        var messages: Int
        var p50Ms: Double?
        var p99Ms: Double?
    }

    /// What the latency distribution measures, such as `connect latency`.
    package var latencyName = "connect latency"
    package var latency: [Bucket]?
    var connected: [Point]?
    package var perSecond: [Second]?
    package var failures: [(code: String, count: Int)]?

    /// No series: what a bench without pictures (`imsh bench chaos`) reports.
    package init() {}

    /// About twenty buckets of a round width from 0 to the largest sample.
    package static func histogram(_ samples: [Duration]) -> [Bucket] {
        let milliseconds = samples.map { BenchClock.seconds($0) * 1000 }
        guard let largest = milliseconds.max() else { return [] }
        let width = SVGChart.niceCeiling(max(largest, 0.001) / 20)
        let count = max(1, Int((largest / width).rounded(.down)) + 1)
        var buckets = (0..<count).map { Bucket(fromMs: Double($0) * width, toMs: Double($0 + 1) * width, count: 0) }
        for sample in milliseconds { buckets[min(count - 1, Int(sample / width))].count += 1 }
        return buckets
    }

    /// How many of `instants` had happened at each step from `start` (about fifty steps).
    static func connectedOverTime(_ instants: [ContinuousClock.Instant], from start: ContinuousClock.Instant) -> [Point] {
        let offsets = instants.map { BenchClock.seconds(max(.zero, $0 - start)) }.sorted()
        guard let last = offsets.last else { return [] }
        let step = SVGChart.niceCeiling(max(last, 0.001) / 50)
        var points: [Point] = [], seen = 0, time = 0.0
        while true {
            while seen < offsets.count && offsets[seen] <= time { seen += 1 }
            points.append(Point(seconds: Units.rounded(time, places: 3), connected: seen))
            if time >= last { return points }
            time += step
        }
    }

    /// Receipts (when, latency) grouped by whole second from `start`, with each second's p50 and p99.
    package static func perSecond(_ receipts: [(at: ContinuousClock.Instant, latency: Duration)], from start: ContinuousClock.Instant) -> [Second] {
        var bySecond: [Int: [Duration]] = [:]
        for receipt in receipts {
            bySecond[Int(BenchClock.seconds(max(.zero, receipt.at - start))), default: []].append(receipt.latency)
        }
        guard let last = bySecond.keys.max() else { return [] }
        return (0...last).map { second in
            let summary = LatencySummary(bySecond[second] ?? [])
            return Second(second: second, messages: bySecond[second]?.count ?? 0,
                          p50Ms: summary.map { Units.milliseconds($0.p50) }, p99Ms: summary.map { Units.milliseconds($0.p99) })
        }
    }

    package static func failures(_ counts: [String: Int]) -> [(code: String, count: Int)] {
        counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    package var json: JSONValue {
        var members: [(String, JSONValue)] = []
        if let latency {
            members.append(("latencyHistogram", .object(JSONObject([
                ("of", .string(latencyName)),
                ("buckets", .array(latency.map { ["fromMs": .double($0.fromMs), "toMs": .double($0.toMs), "count": .integer(Int64($0.count))] })),
            ]))))
        }
        if let connected {
            members.append(("connectedOverTime", .array(connected.map { ["seconds": .double($0.seconds), "connected": .integer(Int64($0.connected))] })))
        }
        if let perSecond {
            members.append(("perSecond", .array(perSecond.map { second in
                [
                    "second": .integer(Int64(second.second)), "messages": .integer(Int64(second.messages)),
                    "p50Ms": second.p50Ms.map { .double($0) } ?? .null, "p99Ms": second.p99Ms.map { .double($0) } ?? .null,
                ]
            })))
        }
        if let failures {
            members.append(("failures", .object(JSONObject(failures.map { ($0.code, .integer(Int64($0.count))) }))))
        }
        return .object(JSONObject(members))
    }
}
