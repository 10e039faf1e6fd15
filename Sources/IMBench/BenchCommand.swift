import IMCommandLine

/// One `imsh bench` subcommand: its options, and the run that yields its report.
package protocol BenchCommand: Sendable {
    static var spec: CommandSpec { get }
    /// Reads the parsed command line; usage errors name the option.
    init(_ reader: OptionReader) throws(UsageError)
    var common: CommonOptions { get }
    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport
}

extension CommandSpec {
    /// The spec of `imsh bench NAME`: its own options, then those every bench shares.
    package static func bench(_ name: String, summary: String, usage: String, options: [OptionSpec], epilogue: String) -> CommandSpec {
        CommandSpec(
            name: "imsh bench \(name)", version: imshVersion, summary: summary, usage: [usage],
            options: options + CommonOptions.options, epilogue: epilogue)
    }
}
