import Foundation
import IMCommandLine
import IMProcess
import IMTimeline
#if canImport(Glibc)
import Glibc
#endif

/// `imsh test PATH...`: runs scenario scripts, each as its own imsh (see `ScenarioProcess`),
/// `--jobs` at a time, and reports one line per scenario and `N passed, N failed`.
public enum ScenarioTest {
    /// `imsh test` in imsh's command table; its arguments complete to files.
    public static let subcommand = Subcommand(
        TestOptions.spec, synopsis: "[options] PATH...", completion: CompletionTree(TestOptions.spec, arguments: .files),
        run: { await main(arguments: $0) })

    /// Runs `imsh test` with the arguments after `test`; returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        let options: TestOptions
        do throws(UsageError) {
            guard let parsed = try CommandLineTool.parseOrAnswer(TestOptions.spec, arguments, version: "imsh \(imshVersion)\n") else {
                return ExitStatus.success
            }
            options = try TestOptions(parsed)
        } catch {
            return usage(error.message)
        }
        let started = ContinuousClock.now
        var shellOptions = ShellOptions()
        shellOptions.profiles = options.profiles
        shellOptions.profile = options.profile
        let startup = ShellStartup(options: shellOptions)
        if startup.hasProfileErrors {
            let renderer = TextRenderer()
            for diagnostic in startup.diagnostics { CommandLineTool.writeError(renderer.render(diagnostic) + "\n") }
            return usage(startup.activeProfileError ?? "the profiles in \(startup.context.profileDirectory.path) have errors")
        }
        let scenarios: [Scenario]
        switch load(options, base: startup.context) {
        case .success(let loaded): scenarios = loaded
        case .failure(let error): return usage(error.messages.joined(separator: "\nimsh test: "))
        }
        // Before any scenario runs, so that a directory that cannot be made costs nothing.
        if let directory = options.html, !DataFiles.makeDirectory(directory) {
            return usage("--html \(directory): cannot make it a directory: \(String(cString: strerror(errno)))")
        }
        let unreachable = await ServerProbe.unreachable(Set(scenarios.flatMap(\.profiles)), in: startup.context.profiles)
        var shellArguments = options.profiles.map { ["--profiles", $0] } ?? []
        if let profile = options.profile { shellArguments += ["--profile", profile] }
        shellArguments += ["--seed", String(options.seed)]
        if !options.json, scenarios.contains(where: \.isRandom) {
            CommandLineTool.writeOut("seed \(options.seed) (imsh test --seed \(options.seed) draws the same)\n")
        }
        // Ctrl-C, or a CI's SIGTERM: the scenarios stop and their directories go.
        Interruption.install(name: "imsh test")
        var process = ScenarioProcess(executable: ChildProcess.ownExecutable, shellArguments: shellArguments, timeout: options.timeout)
        if options.html != nil { process.timelineProfiles = startup.context.profiles }
        let outcomes = await run(scenarios, options: options, process: process, unreachable: unreachable)
        await Interruption.yieldToSignal()
        let elapsed = started.duration(to: .now)
        let report = TestReport(
            outcomes: outcomes, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, seed: options.seed)
        if let file = options.junit, let problem = PrivateFile.write(report.junit, to: file) {
            CommandLineTool.writeError("imsh test: \(problem)\n")
        }
        for problem in options.html.map(report.writeHTML) ?? [] { CommandLineTool.writeError("imsh test: \(problem)\n") }
        CommandLineTool.writeOut((options.json ? report.jsonSummary : report.closingLine) + "\n")
        return report.failed > 0 ? ExitStatus.commandFailed : ExitStatus.success
    }

    /// The scenarios of the paths that pass the filter, every file checked before any runs.
    private static func load(_ options: TestOptions, base: ShellContext) -> Result<[Scenario], ScenarioErrors> {
        let files: [String]
        do throws(UsageError) {
            files = try Scenario.files(options.paths).filter { file in options.filter.map { file.contains($0) } ?? true }
        } catch {
            return .failure(ScenarioErrors([error.message]))
        }
        guard !files.isEmpty else { return .failure(ScenarioErrors(["no scenario's path contains '\(options.filter ?? "")'"])) }
        var scenarios: [Scenario] = []
        var errors: [String] = []
        for file in files {
            switch Scenario.load(file, base: base) {
            case .success(let scenario): scenarios.append(scenario)
            case .failure(let failure): errors += failure.messages
            }
        }
        return errors.isEmpty ? .success(scenarios) : .failure(ScenarioErrors(errors))
    }

    /// Runs every scenario `--repeat` times, `--jobs` runs at once; prints each scenario's
    /// line as its last run ends; returns the outcomes in the scenarios' order.
    private static func run(
        _ scenarios: [Scenario], options: TestOptions, process: ScenarioProcess, unreachable: [String: String]
    ) async -> [ScenarioOutcome] {
        let jobs = scenarios.indices.flatMap { index in Array(repeating: index, count: options.repeatCount) }
        var runs = [[ScenarioRun]](repeating: [], count: scenarios.count)
        var outcomes = [ScenarioOutcome?](repeating: nil, count: scenarios.count)
        func finished(_ index: Int, _ run: ScenarioRun) {
            runs[index].append(run)
            guard runs[index].count == options.repeatCount else { return }
            let outcome = ScenarioOutcome(scenario: scenarios[index].path, runs: runs[index])
            outcomes[index] = outcome
            CommandLineTool.writeOut((options.json ? TestReport.json(outcome) : TestReport.textLines(outcome)) + "\n")
        }
        await withTaskGroup(of: (Int, ScenarioRun).self) { group in
            var next = jobs.startIndex
            func start() {
                guard next < jobs.endIndex else { return }
                let index = jobs[next]
                next += 1
                let scenario = scenarios[index]
                if let reason = scenario.profiles.sorted().lazy.compactMap({ name in unreachable[name].map { "profile \(name): \($0)" } }).first {
                    // Not started: its server is known to be down.
                    group.addTask { (index, .notRun(reason)) }
                } else {
                    group.addTask { (index, await process.run(scenario)) }
                }
            }
            for _ in 0..<min(options.jobs, jobs.count) { start() }
            for await (index, run) in group {
                finished(index, run)
                start()
            }
        }
        return outcomes.compactMap { $0 }
    }

    private static func usage(_ message: String) -> Int32 {
        CommandLineTool.writeError("imsh test: \(message)\n")
        return ExitStatus.usage
    }
}
