import IMJSON
import IMProcess

/// What `imsh bench shell` measured: each command's time, and the shell's memory.
struct ShellReport: BenchReport {
    struct Step: Sendable {
        var command: String
        var answer: ShellChild.Answer
    }

    var accounts: Int
    var steps: [Step] = []
    /// The shell process with every account connected.
    var memory: ProcessStatus?
    /// Why the run stopped early, if it did.
    var error: String?

    /// None of the pictures apply: the command times are in the summary and the JSON.
    var figures: BenchFigures { BenchFigures() }

    var succeeded: Bool { error == nil && steps.count == ShellBench.script(noWait: false).count && steps.allSatisfy(\.answer.ok) }

    var json: JSONValue {
        var object: [(String, JSONValue)] = [
            ("type", "result"), ("bench", "shell"), ("accounts", .integer(Int64(accounts))), ("ok", .bool(succeeded)),
            ("commands", .array(steps.map { step in
                .object(JSONObject([
                    ("command", .string(step.command)), ("ok", .bool(step.answer.ok)),
                    ("seconds", .double(Units.seconds(step.answer.elapsed))), ("events", .integer(Int64(step.answer.events))),
                ]))
            })),
        ]
        if let memory {
            object.append(("shellResidentKiB", .integer(Int64(memory.residentKB))))
            object.append(("shellKiBPerAccount", .double(Units.rounded(Double(memory.residentKB) / Double(accounts), places: 1))))
        }
        if let error { object.append(("error", .string(error))) }
        object.append(("figures", figures.json))
        return .object(JSONObject(object))
    }

    var lines: [String] {
        var lines = ["bench shell: \(accounts) accounts, one profile, the shell's embedded server"]
        let width = steps.map(\.command.count).max() ?? 0
        for step in steps {
            let pad = String(repeating: " ", count: width - step.command.count)
            let verdict = step.answer.ok ? "" : "  (failed: \(step.answer.result["error"]?.stringValue ?? "see --json"))"
            lines.append("  \(step.command)\(pad)  \(Units.secondsText(step.answer.elapsed))  \(step.answer.events) events\(verdict)")
        }
        if let memory {
            let perAccount = Units.kibibytesText(Double(memory.residentKB) / Double(accounts))
            lines.append("  shell VmRSS all connected: \(Units.mebibytesText(kilobytes: memory.residentKB)) (\(perAccount) per account)")
        }
        if let error { lines.append("  stopped: \(error)") }
        return lines
    }
}
