import IMJSON

extension LatencySummary {
    package var json: JSONValue {
        [
            "count": .integer(Int64(count)), "p50Ms": .double(Units.milliseconds(p50)),
            "p90Ms": .double(Units.milliseconds(p90)), "p99Ms": .double(Units.milliseconds(p99)),
            "maxMs": .double(Units.milliseconds(max)),
        ]
    }

    package var text: String {
        "p50 \(Units.millisecondsText(p50))  p90 \(Units.millisecondsText(p90))  "
            + "p99 \(Units.millisecondsText(p99))  max \(Units.millisecondsText(max))"
    }
}
