import Foundation
import IMTimeline
#if canImport(Glibc)
import Glibc
#endif

extension TestReport {
    /// `--html DIR`'s list of every scenario, linking to the failed ones' pages.
    static let indexFile = "index.html"

    /// Writes `--html DIR`: a page for each failed scenario (its failure, the timeline of its
    /// accounts with the failure marked, its output) and `index.html` listing them all. The
    /// directory was made before the scenarios ran; each file is private (`PrivateFile`: mode
    /// 0600, a symbolic link refused). A scenario that did not fail has no page: one left by
    /// an earlier run is removed, so that no page claims a failure this run did not have.
    /// Returns what could not be written or removed.
    func writeHTML(to directory: String) -> [String] {
        var problems: [String] = []
        let files = pageFiles
        for (outcome, file) in zip(outcomes, files) {
            let path = "\(directory)/\(file)"
            if outcome.verdict.isFailure {
                if let problem = PrivateFile.write(Self.page(outcome), to: path) { problems.append(problem) }
            } else if unlink(path) != 0, errno != ENOENT {
                problems.append("cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        if let problem = PrivateFile.write(index(files), to: "\(directory)/\(Self.indexFile)") { problems.append(problem) }
        return problems
    }

    /// Each scenario's page file: its file name without `.imsh` and with `.html`, numbered
    /// (`-2`, `-3`) when scenarios of several directories share a name or one is `index`.
    var pageFiles: [String] {
        var taken: Set<String> = ["index"]
        return outcomes.map { outcome in
            var base = (outcome.scenario as NSString).lastPathComponent
            if base.hasSuffix(Scenario.fileExtension) { base = String(base.dropLast(Scenario.fileExtension.count)) }
            if base.isEmpty || base.hasPrefix(".") { base = "scenario" + base }
            var name = base, number = 1
            while taken.contains(name) {
                number += 1
                name = "\(base)-\(number)"
            }
            taken.insert(name)
            return name + ".html"
        }
    }

    /// Every scenario with its result, seconds and failure; a failed one links to its page.
    private func index(_ files: [String]) -> String {
        var body = "<p>\(closingLine) in \(Self.seconds(seconds)).</p>\n"
        body += "<table class=\"scenarios\"><tr><th>result</th><th>scenario</th><th>time</th><th>failure</th></tr>\n"
        for (outcome, file) in zip(outcomes, files) {
            let name = XMLText.escaped(outcome.scenario)
            let scenario = outcome.verdict.isFailure ? "<a href=\"\(Self.href(file))\">\(name)</a>" : name
            body += "<tr class=\"\(Self.result(outcome))\"><td>\(Self.result(outcome))</td><td>\(scenario)</td>"
                + "<td>\(Self.seconds(outcome.seconds).replacing(" ", with: "&#160;"))</td><td>\(XMLText.escaped(Self.failure(outcome) ?? ""))</td></tr>\n"
        }
        return HTMLPage(title: "imsh test", body: body + "</table>\n").html
    }

    /// A failed scenario: what failed and where, its first failed run's timeline, that run's output.
    static func page(_ outcome: ScenarioOutcome) -> String {
        let failure = self.failure(outcome) ?? outcome.scenario
        let runs = outcome.runs.count
        let index = outcome.runs.firstIndex { $0.failed } ?? 0
        let run = outcome.runs[index]
        var body = "<p><a href=\"\(href(indexFile))\">All scenarios</a></p>\n"
        body += "<p class=\"failure\" style=\"color:#b00020\"><b>FAIL</b> \(XMLText.escaped(failure))</p>\n"
        if runs > 1 { body += "<p>\(outcome.passedRuns)/\(runs) runs passed; this is run \(index + 1).</p>\n" }
        body += "<h2>Timeline</h2>\n"
        if let logs = run.logs {
            body += HTMLTimeline().body(logs.timeline(failure: failure))
            for problem in logs.problems { body += "<p>Not read: \(XMLText.escaped(problem))</p>\n" }
        } else {
            body += "<p>No connection logs: this run's imsh did not start.</p>\n"
        }
        body += "<h2>Output</h2>\n<pre class=\"json\">\(elementText(run.output))</pre>\n"
        return HTMLPage(title: "imsh test: \(outcome.scenario)", body: body).html
    }

    /// `FILE:LINE: message` of a failed outcome, or nil.
    private static func failure(_ outcome: ScenarioOutcome) -> String? {
        guard case let .failed(location, message) = outcome.verdict else { return nil }
        return "\(location ?? outcome.scenario): \(message)"
    }

    private static func result(_ outcome: ScenarioOutcome) -> String {
        switch outcome.verdict {
        case .passed: "passed"
        case .failed: "failed"
        case .skipped: "skipped"
        }
    }

    /// A link to a file beside the page: `./` first, so that a name with a colon is no scheme.
    private static func href(_ file: String) -> String {
        "./" + XMLText.escaped(file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file)
    }
}
