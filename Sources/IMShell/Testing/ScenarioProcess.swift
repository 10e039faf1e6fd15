import Foundation
import IMJSON
import IMProcess
import IMProfiles
import IMProtocol
import IMThreads
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// Runs one scenario as a child imsh: `imsh --json --data TEMP [--profiles DIR] [--profile NAME] FILE`.
///
/// A child process rather than an executor in this process, because it is what gives each
/// scenario its isolation and a timeout that really ends it: its own data directory (a fresh
/// 0700 directory, removed after) and its own embedded server (each imsh starts one on free
/// ports), so parallel scenarios never see each other's users; and at the timeout its whole
/// process group is ended (SIGTERM, then SIGKILL), whatever it was blocked on, which an
/// in-process task cancellation cannot promise. It costs one exec and imsh's start-up, about
/// 35-45 ms in a debug build (BENCHMARKS.md), within the 100 ms per scenario budget. The wait for the child blocks,
/// so it runs off the cooperative pool (`BlockingCall`).
struct ScenarioProcess: Sendable {
    /// The imsh executable (this process's own).
    let executable: String
    /// `--profiles DIR` and `--profile NAME` as `imsh test` was given them.
    let shellArguments: [String]
    let timeout: Double
    /// The profiles whose accounts' logs a failed run keeps (`--html`); nil: none kept.
    var timelineProfiles: ProfileSet?

    func run(_ scenario: Scenario) async -> ScenarioRun {
        guard let data = Self.makeDataDirectory() else {
            return .notRun("cannot make a data directory in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
        }
        Interruption.removeIfInterrupted(data)
        defer {
            try? FileManager.default.removeItem(atPath: data)
            Interruption.forget(data)
        }
        let arguments = ["--json", "--data", data] + shellArguments + [scenario.path]
        let (executable, timeout) = (self.executable, self.timeout)
        let started = ContinuousClock.now
        let result = await BlockingCall.run { () -> Result<ChildProcess.Output, ChildProcessError> in
            Result { () throws(ChildProcessError) in
                try ChildProcess.run(executable, arguments, timeout: .milliseconds(Int64(timeout * 1000)))
            }
        }
        let elapsed = started.duration(to: .now), endedAt = WallClock.milliseconds()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        switch result {
        case .failure(let error):
            return ScenarioRun(verdict: .failed(location: nil, message: "\(error)"), seconds: seconds, output: "")
        case .success(let output):
            let stdout = String(decoding: output.stdout, as: UTF8.self), stderr = String(decoding: output.stderr, as: UTF8.self)
            let objects = Self.objects(stdout)
            let verdict = Self.verdict(of: scenario, objects: objects, stderr: stderr, output: output, timeout: timeout)
            var run = ScenarioRun(verdict: verdict, seconds: seconds, output: stdout + stderr)
            if verdict.isFailure, let profiles = timelineProfiles {
                // Now, while the data directory is still there.
                let used = scenario.profiles.sorted().compactMap { profiles.profile(named: $0) }
                run.logs = await ScenarioLogs.read(dataDirectory: data, profiles: used, objects: objects, endedAt: endedAt)
            }
            return run
        }
    }

    /// The child's `--json` lines, one object each; lines that are not are left out.
    static func objects(_ stdout: String) -> [JSONObject] {
        stdout.split(separator: "\n").compactMap { (try? JSONValue(parsing: String($0)))?.objectValue }
    }

    /// Reads the child's results: the first failed step, a skip, or the step a timeout found it on.
    static func verdict(of scenario: Scenario, objects: [JSONObject], stderr: String, output: ChildProcess.Output, timeout: Double) -> ScenarioRun.Verdict {
        let results = objects.filter { $0["type"] == "result" }
        if let failed = results.first(where: { $0["ok"] == .bool(false) }) {
            return .failed(location: failed["location"]?.stringValue, message: failed["error"]?.stringValue ?? "failed")
        }
        if output.timedOut {
            // Each step answers with one result: the step after the last answered is the one it was on.
            let time = CommandExecutor.seconds(timeout)
            guard results.count < scenario.steps.count else { return .failed(location: nil, message: "timed out after \(time), shutting down") }
            let step = scenario.steps[results.count]
            return .failed(location: "\(scenario.path):\(step.line)", message: "timed out after \(time) in: \(step.text)")
        }
        if let skip = results.first(where: { $0["skipped"] != nil }) { return .skipped(reason: skip["skipped"]?.stringValue ?? "") }
        guard output.termination.status == 0 else {
            let why = stderr.split(separator: "\n").first.map(String.init) ?? "imsh ended with status \(output.termination.status)"
            return .failed(location: nil, message: why)
        }
        return .passed
    }

    /// A new directory of our own (0700) for one run's data.
    private static func makeDataDirectory() -> String? {
        var template = Array((NSTemporaryDirectory() + "imsh-test-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        return String(cString: made)
    }
}
