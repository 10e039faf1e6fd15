/// What `imsh test` found: each scenario's outcome in the order given, and the totals.
///
/// The reports are renderings of this one value (text, `--json`, `--junit`), so another
/// (an HTML page, say) is one more extension beside them, reading the same outcomes.
struct TestReport: Sendable {
    var outcomes: [ScenarioOutcome]
    /// Wall time of the whole run, in seconds.
    var seconds: Double
    /// What the scenarios' random steps drew from (`--seed`).
    var seed: UInt64

    var passed: Int { outcomes.count { $0.verdict == .passed } }
    var failed: Int { outcomes.count { $0.verdict.isFailure } }
    var skipped: Int { outcomes.count { if case .skipped = $0.verdict { true } else { false } } }

    /// `N passed, N failed`, with `, N skipped` when some were.
    var closingLine: String {
        "\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : "")
    }

    /// One scenario's line (and its failure's, indented), as it finishes.
    static func textLines(_ outcome: ScenarioOutcome) -> String {
        let runs = outcome.runs.count
        let rate = runs > 1 ? "  \(outcome.passedRuns)/\(runs) passed" + (outcome.isFlaky ? " (flaky)" : "") : ""
        let time = "  " + seconds(outcome.seconds / Double(max(1, runs))) + (runs > 1 ? " each" : "")
        switch outcome.verdict {
        case .passed:
            return "pass  \(outcome.scenario)\(time)\(rate)"
        case .skipped(let reason):
            return "skip  \(outcome.scenario)  \(TextRenderer.visible(reason))"
        case let .failed(location, message):
            let place = location.map { "\($0): " } ?? "\(outcome.scenario): "
            return "FAIL  \(outcome.scenario)\(time)\(rate)\n      \(place)\(TextRenderer.visible(message))"
        }
    }

    /// `0.42 s`: two decimals are what a person compares scenarios by.
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100).\(fraction.count < 2 ? "0" + fraction : fraction) s"
    }
}
