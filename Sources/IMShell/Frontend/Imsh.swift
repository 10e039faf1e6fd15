import Foundation
import IMCommandLine
import IMProfiles
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The imsh program: options, profiles, then the REPL or a script.
public enum Imsh {
    /// Runs imsh with `arguments` (without the program name); returns the exit status.
    ///
    /// Every mode starts by raising the open-file soft limit to the hard limit: each session
    /// holds a socket, and its database file while in use. A first argument naming one of the
    /// `table`'s subcommands hands the rest of the line to it; `--help` prints the table's usage.
    /// The executable supplies the table, so that modules built on this one (IMBench) are in it.
    public static func main(arguments: [String], table: CommandTable) async -> Int32 {
        _ = try? ProcessLimits.raiseOpenFileLimit()
        if let (subcommand, rest) = table.selected(by: arguments) {
            return await subcommand.run(rest)
        }
        let parsed: ParsedArguments
        let options: ShellOptions
        do throws(UsageError) {
            guard let arguments = try CommandLineTool.parseOrAnswer(table.spec, arguments, version: "imsh \(ShellOptions.spec.version)\n") else {
                return ExitStatus.success
            }
            parsed = arguments
            options = try ShellOptions(parsed)
        } catch {
            CommandLineTool.writeError("imsh: \(error.message)\n")
            return ExitStatus.usage
        }
        let script: String?
        switch readScript(options) {
        case .success(let text): script = text
        case .failure(let error):
            CommandLineTool.writeError("imsh: \(error.message)\n")
            return ExitStatus.usage
        }
        return await run(options, script: script)
    }

    private static func run(_ options: ShellOptions, script: String?) async -> Int32 {
        let startup = ShellStartup(options: options)
        let output = StandardOutput()
        let style = TerminalStyle.forOutput(STDOUT_FILENO)
        let errorRenderer = TextRenderer(style: TerminalStyle.forOutput(STDERR_FILENO))
        for diagnostic in startup.diagnostics {
            output.write("imsh: " + errorRenderer.render(diagnostic), isError: true)
        }
        if let error = startup.activeProfileError { output.write("imsh: \(error)", isError: true) }
        let redactor = SecretRedactor(profiles: startup.context.profiles)
        let executor = CommandExecutor(context: startup.context, redactor: redactor, seed: options.seed ?? ShellOptions.drawSeed())
        let interactive = script == nil && options.scriptFile == nil && isatty(STDIN_FILENO) == 1
        if interactive {
            return await InteractiveShell(executor: executor, json: options.json, style: style).run()
        }
        let presenter = Presenter(format: options.json ? .json : .text(TextRenderer(style: style)), redactor: redactor, output: output)
        if options.json {
            for diagnostic in startup.diagnostics { output.write(JSONRenderer().render(diagnostic), isError: false) }
        }
        executor.router.connect { presenter.show($0) }
        var status = ExitStatus(profileErrorsAtStart: startup.hasProfileErrors)
        let runner = ScriptRunner(executor: executor, presenter: presenter, source: options.scriptFile.flatMap { $0 == "-" ? nil : $0 })
        if let script {
            await runner.run(script: script, status: &status)
        } else {
            await runner.run(lines: standardInputLines(), status: &status)
        }
        _ = await executor.shutdown()
        return status.code
    }

    /// The text of `-c`, or of the script file; nil to read standard input.
    private static func readScript(_ options: ShellOptions) -> Result<String?, UsageError> {
        if let commands = options.commands { return .success(commands) }
        guard let file = options.scriptFile, file != "-" else { return .success(nil) }
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(UsageError("cannot read the script \(file): \(String(cString: strerror(errno)))"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(UsageError("the script \(file) is not UTF-8 text"))
        }
        return .success(text)
    }

    /// Standard input's lines as they arrive, read on a thread of their own (reads block).
    private static func standardInputLines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let thread = Thread {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        thread.name = "imsh-stdin"
        thread.start()
        return stream
    }
}
