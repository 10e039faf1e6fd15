import IMCommandLine
#if canImport(Glibc)
import Glibc
#endif

/// `imsh test`'s command line: the scenarios, where they run, and the reports.
struct TestOptions: Sendable {
    var paths: [String]
    var profiles: String?
    var profile: String?
    var jobs: Int
    var timeout: Double
    var repeatCount: Int
    var filter: String?
    var junit: String?
    /// `--html DIR`: where the pages of the failed scenarios and their index go.
    var html: String?
    var json: Bool
    /// Given to every scenario's imsh (`--seed`): what `link ACCOUNT loss` loses.
    var seed: UInt64

    /// How long a scenario may run unless `--timeout` says otherwise, in seconds.
    static let defaultTimeout = 60.0

    static let spec = CommandSpec(
        name: "imsh test",
        version: imshVersion,
        summary: "run scenario scripts, each isolated, in parallel, and report what passed",
        usage: ["[options] PATH..."],
        options: [
            OptionSpec("--profiles", value: "DIR", help: "read profiles from DIR (as imsh does)"),
            OptionSpec("--profile", short: "-p", value: "NAME", completion: .profileNames, help: "run the scenarios against profile NAME"),
            OptionSpec("--jobs", short: "-j", value: "N", help: "run N scenarios at once (default: twice the cores, at least 4)"),
            OptionSpec("--timeout", value: "S", help: "end a scenario after S seconds and fail it (default 60)"),
            OptionSpec("--repeat", value: "N", help: "run each scenario N times and report its pass rate"),
            OptionSpec("--filter", value: "TEXT", help: "run only the scenarios whose path contains TEXT"),
            OptionSpec("--junit", value: "FILE", help: "also write a JUnit XML report to FILE"),
            OptionSpec("--html", value: "DIR", help: "also write an HTML page per failed scenario to DIR"),
            OptionSpec("--json", help: "print one JSON object per scenario and a summary"),
            OptionSpec("--seed", value: "N", help: "seed the scenarios' random steps (link loss) with N (default: drawn, and printed)"),
        ],
        epilogue: """
            PATH is a scenario file (an imsh script), or a directory: each *.imsh file in it, by
            name. Every scenario is checked first (commands, states, accounts); then each runs
            as its own imsh, with its own data directory and embedded server. A scenario ends
            early as skipped with 'skip REASON'.

            exit status: 0 every scenario passed (or was skipped), 1 one failed, 2 usage error
            (a bad option, a path without scenarios, a scenario that does not check).

            See TESTING in imsh(1).
            """)

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let reader = OptionReader(parsed: parsed, command: Self.spec.name)
        paths = parsed.positionals
        guard !paths.isEmpty else { throw UsageError("give at least one scenario file or directory; see 'imsh test --help'") }
        profiles = parsed.value("--profiles")
        profile = parsed.value("--profile")
        // A scenario mostly waits (deadlines, backoff, heartbeats): more of them than cores keep
        // a suite near its longest scenario's time (BENCHMARKS.md) without starving their timing.
        jobs = try reader.integer("--jobs", in: 1...1024) ?? max(4, 2 * Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        timeout = try reader.number("--timeout", in: 0.1...86_400) ?? Self.defaultTimeout
        repeatCount = try reader.integer("--repeat", in: 1...10_000) ?? 1
        filter = parsed.value("--filter")
        junit = parsed.value("--junit")
        html = parsed.value("--html")
        json = parsed.has("--json")
        seed = try reader.integer("--seed", in: 0...ShellOptions.maximumSeed).map(UInt64.init) ?? ShellOptions.drawSeed()
    }
}
