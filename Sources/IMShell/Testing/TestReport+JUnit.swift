import IMTimeline

extension TestReport {
    /// JUnit XML as Jenkins, GitLab and GitHub read it: one testsuite, a testcase per scenario,
    /// a failure with its `FILE:LINE: message` and the scenario's output, a skipped element
    /// with its reason.
    var junit: String {
        let suite = "<testsuite name=\"imsh\" tests=\"\(outcomes.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"\(skipped)\""
            + " time=\"\(Self.time(seconds))\">"
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<testsuites>", suite]
        for outcome in outcomes {
            let name = XMLText.escaped(outcome.scenario)
            lines.append("<testcase name=\"\(name)\" classname=\"imsh\" file=\"\(name)\" time=\"\(Self.time(outcome.seconds))\">")
            switch outcome.verdict {
            case .passed:
                break
            case .skipped(let reason):
                lines.append("<skipped message=\"\(XMLText.escaped(reason))\"/>")
            case let .failed(location, message):
                let text = (location.map { "\($0): " } ?? "") + message
                let rate = outcome.runs.count > 1 ? " (\(outcome.passedRuns)/\(outcome.runs.count) runs passed)" : ""
                lines.append("<failure message=\"\(XMLText.escaped(text + rate))\" type=\"expectation\">\(Self.elementText(outcome.output))</failure>")
            }
            // A failure carries the output in its body already.
            if !outcome.verdict.isFailure, !outcome.output.isEmpty { lines.append("<system-out>\(Self.elementText(outcome.output))</system-out>") }
            lines.append("</testcase>")
        }
        lines += ["</testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Element text: escaped, newlines kept as they are (readable in the file; `--html`'s
    /// output too).
    static func elementText(_ text: String) -> String {
        XMLText.escaped(text).replacing("&#10;", with: "\n")
    }

    private static func time(_ seconds: Double) -> String {
        String(Double(Int((seconds * 1000).rounded())) / 1000)
    }
}
