/// How one run of a scenario ended, with its time and what the scenario printed.
struct ScenarioRun: Sendable {
    enum Verdict: Sendable, Equatable {
        case passed
        /// Where it failed (`FILE:LINE`, when a step did) and why.
        case failed(location: String?, message: String)
        /// A `skip REASON` step ended it.
        case skipped(reason: String)

        var isFailure: Bool {
            if case .failed = self { return true }
            return false
        }
    }

    var verdict: Verdict
    var seconds: Double
    /// The scenario's output (imsh's `--json` lines, then its standard error), for JUnit.
    var output: String
    /// A failed run's connection logs, kept for `--html`.
    var logs: ScenarioLogs?

    var passed: Bool { verdict == .passed }

    var failed: Bool { verdict.isFailure }

    /// A run that never started: its server cannot be reached, say.
    static func notRun(_ message: String) -> ScenarioRun {
        ScenarioRun(verdict: .failed(location: nil, message: message), seconds: 0, output: "")
    }
}
