import IMCommandLine
import IMProcess
import IMTimeline

/// One bench of `imsh bench`: its command, and what follows its name in the usage.
package typealias BenchEntry = (command: any BenchCommand.Type, synopsis: String)

/// `imsh bench BENCH`: many accounts at once, measured.
///
/// The benches of this module come first; imsh adds those of modules of their own (`imsh bench
/// chaos`, IMChaosBench), which build on this one and so cannot be named here.
public struct Bench: Sendable {
    /// The benches of this module, in the order the usage lists them, each with what follows its
    /// name there. A bench's name is the last word of its spec's (`imsh bench connect`), declared in its file.
    static let builtIn: [BenchEntry] = [
        (ConnectBench.self, "--accounts N [--profile P] [--rate R] [--hold S] [--workers N] [options]"),
        (MessagesBench.self, "--pairs N [--rate R] [--duration S] [--workers N] [options]"),
        (ReconnectBench.self, "--accounts N [--down S] [--jitter J] [options]"),
        (ShellBench.self, "--accounts N [options]"),
    ]

    /// Every bench: this module's, then those imsh adds.
    let benches: [BenchEntry]

    /// The benches of this module followed by `more`.
    package init(adding more: [BenchEntry]) {
        benches = Self.builtIn + more
    }

    /// The benches' names, in the table's order.
    var names: [String] { benches.map { $0.command.spec.word } }

    var spec: CommandSpec {
        CommandSpec(
            name: "imsh bench",
            version: imshVersion,
            summary: "measure many accounts at once: connecting, messaging, reconnecting, and the server's logins",
            usage: benches.map { "\($0.command.spec.word) \($0.synopsis)" },
            epilogue: """
                Each bench runs an IM server (in this process, or a separate imserver with --server spawn;
                connect, messages and reconnect also drive running servers, --server URL,URL,...),
                creates its users through the server API, connects them as full sessions of one engine
                (each with its own SQLite database) and reports what it measured; 'login' uses bare
                MQTT clients instead, to measure the server alone, and 'server' drives any MQTT 5
                server (imserver or a stock broker) with such clients. See
                'imsh bench BENCH --help' for each bench's options, and imsh(1).

                exit status: 0 the bench ran and met its conditions, 1 it did not, 2 usage error,
                128 + N ended by signal N (what it started stopped, its temporary directory removed)
                """)
    }

    /// `imsh bench` as imsh's command table lists it: its usage line names every bench, and
    /// completion offers each with its options.
    package var subcommand: Subcommand {
        Subcommand(
            spec, synopsis: "\(names.joined(separator: "|")) [options]",
            completion: CompletionTree(spec, subcommands: benches.map { CompletionTree($0.command.spec) }.sorted { $0.name < $1.name }),
            run: { await main(arguments: $0) })
    }

    /// Runs `imsh bench` with the arguments after `bench`; returns the exit status.
    func main(arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            return Self.usageError(spec.name, UsageError("missing bench: \(UsageError.choices(names)) (see '\(spec.name) --help')"))
        }
        if name == "--help" || name == "-h" {
            CommandLineTool.writeOut(spec.helpText)
            return 0
        }
        if name == "--version" {
            CommandLineTool.writeOut("imsh \(imshVersion)\n")
            return 0
        }
        guard let command = benches.first(where: { $0.command.spec.word == name })?.command else {
            return Self.usageError(spec.name, UsageError("unknown bench '\(name)': use \(UsageError.choices(names))"))
        }
        return await Self.run(command, Array(arguments.dropFirst()))
    }

    private static func run(_ type: any BenchCommand.Type, _ arguments: [String]) async -> Int32 {
        let command: any BenchCommand
        do throws(UsageError) {
            switch try ArgumentParser(spec: type.spec).parse(arguments) {
            case .help:
                CommandLineTool.writeOut(type.spec.helpText)
                return 0
            case .version:
                CommandLineTool.writeOut("imsh \(imshVersion)\n")
                return 0
            case .run(let parsed):
                command = try type.init(OptionReader(parsed: parsed, command: type.spec.name))
            }
        } catch {
            return usageError(type.spec.name, error)
        }
        let progress = ProgressLine.forStandardOutput(json: command.common.json)
        Interruption.install(name: type.spec.name)
        do throws(BenchError) {
            let report = try await command.run(progress: progress)
            await Interruption.yieldToSignal()
            var lines = report.lines
            if let file = command.common.report {
                if let failure = PrivateFile.write(BenchReportPage(report, command: type.spec.name).html, to: file) {
                    throw BenchError(failure)
                }
                lines.append("report       \(file)")
            }
            progress.write(command.common.json ? report.json.jsonText + "\n" : lines.joined(separator: "\n") + "\n")
            return report.succeeded ? 0 : 1
        } catch {
            await Interruption.yieldToSignal()
            progress.write("")
            CommandLineTool.writeError("\(type.spec.name): \(error)\n")
            return 1
        }
    }

    private static func usageError(_ name: String, _ error: UsageError) -> Int32 {
        CommandLineTool.writeError("\(name): \(error.message)\n")
        return CommandLineTool.usageExitStatus
    }
}
