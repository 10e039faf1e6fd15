/// Every run of one scenario (`--repeat`), and the verdict they add up to.
struct ScenarioOutcome: Sendable {
    let scenario: String
    let runs: [ScenarioRun]

    /// Skipped when a run skipped and none failed; failed when any run failed; passed otherwise.
    var verdict: ScenarioRun.Verdict {
        if let failure = runs.first(where: \.failed) { return failure.verdict }
        if let skip = runs.first(where: { !$0.passed }) { return skip.verdict }
        return .passed
    }

    var passedRuns: Int { runs.count(where: \.passed) }
    var failedRuns: Int { runs.count(where: \.failed) }
    /// Passed sometimes and failed other times.
    var isFlaky: Bool { passedRuns > 0 && failedRuns > 0 }
    var seconds: Double { runs.reduce(0) { $0 + $1.seconds } }
    /// What the runs printed; for several runs, each under a line naming it.
    var output: String {
        runs.count == 1 ? runs[0].output : runs.enumerated().map { "--- run \($0.offset + 1) ---\n\($0.element.output)" }.joined()
    }
}
