import IMCommandLine
import IMProcess
import IMTimeline

/// `imsh bench connect|messages|reconnect|login|shell|server|chaos`: many accounts at once, measured.
public enum Bench {
    static let commands: [String: any BenchCommand.Type] = [
        "connect": ConnectBench.self, "messages": MessagesBench.self, "reconnect": ReconnectBench.self,
        "login": LoginBench.self, "shell": ShellBench.self, "server": ServerBench.self, "chaos": ChaosBench.self,
    ]

    static let spec = CommandSpec(
        name: "imsh bench",
        version: imshVersion,
        summary: "measure many accounts at once: connecting, messaging, reconnecting, and the server's logins",
        usage: [
            "connect --accounts N [--profile P] [--rate R] [--hold S] [--workers N] [options]",
            "messages --pairs N [--rate R] [--duration S] [--workers N] [options]",
            "reconnect --accounts N [--down S] [--jitter J] [options]",
            "login --connections N [--window W] [--hold S] [options]",
            "shell --accounts N [options]",
            "server --target mqtt://HOST[:PORT] [--pairs N] [--rate R] [options]",
            "chaos --store URL [--store-restart COMMAND] [--duration S] [--seed N] [options]",
        ],
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

    /// `imsh bench` and its benches with their options, for shell completion.
    public static var completionTree: CompletionTree {
        CompletionTree(spec, subcommands: commands.keys.sorted().compactMap { commands[$0].map { CompletionTree($0.spec) } })
    }

    /// Runs `imsh bench` with the arguments after `bench`; returns the exit status.
    public static func main(arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            return usageError(spec.name, UsageError("missing bench: connect, messages, reconnect, login, shell, server or chaos (see 'imsh bench --help')"))
        }
        if name == "--help" || name == "-h" {
            CommandLineTool.writeOut(spec.helpText)
            return 0
        }
        if name == "--version" {
            CommandLineTool.writeOut("imsh \(imshVersion)\n")
            return 0
        }
        guard let command = commands[name] else {
            return usageError(spec.name, UsageError("unknown bench '\(name)': use connect, messages, reconnect, login, shell, server or chaos"))
        }
        return await run(command, Array(arguments.dropFirst()))
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
