import IMCommandLine

/// One `imsh bench` subcommand: its options, and the run that yields its report.
protocol BenchCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Reads the parsed command line; usage errors name the option.
    init(_ reader: OptionReader) throws(UsageError)
    var common: CommonOptions { get }
    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport
}
