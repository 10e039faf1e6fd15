import IMJSON

extension TestReport {
    /// `--json`: one object per scenario, `{"type":"scenario",...}`, as it finishes.
    static func json(_ outcome: ScenarioOutcome) -> String {
        var members: [(String, JSONValue)] = [("type", "scenario"), ("scenario", .string(outcome.scenario))]
        switch outcome.verdict {
        case .passed:
            members.append(("result", "passed"))
        case .skipped(let reason):
            members += [("result", "skipped"), ("reason", .string(reason))]
        case let .failed(location, message):
            members.append(("result", "failed"))
            if let location { members.append(("location", .string(location))) }
            members.append(("message", .string(message)))
        }
        members += [
            ("seconds", .double(outcome.seconds)), ("runs", .integer(Int64(outcome.runs.count))),
            ("passedRuns", .integer(Int64(outcome.passedRuns))), ("failedRuns", .integer(Int64(outcome.failedRuns))),
            ("flaky", .bool(outcome.isFlaky)),
        ]
        return JSONValue.object(JSONObject(members)).jsonText
    }

    /// `--json`: the closing object, `{"type":"summary",...}`.
    var jsonSummary: String {
        JSONValue.object(JSONObject([
            ("type", "summary"), ("passed", .integer(Int64(passed))), ("failed", .integer(Int64(failed))),
            ("skipped", .integer(Int64(skipped))), ("seconds", .double(seconds)), ("seed", .integer(Int64(seed))),
        ])).jsonText
    }
}
