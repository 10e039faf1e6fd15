import IMProtocol

/// Runs commands in order without a prompt: from `-c`, a script file, or standard input.
public struct ScriptRunner: Sendable {
    let executor: CommandExecutor
    let presenter: Presenter
    /// The script file's name, for the `FILE:LINE` of a failed command; nil for `-c` and
    /// standard input, whose failures say `line N`.
    let source: String?

    public init(executor: CommandExecutor, presenter: Presenter, source: String? = nil) {
        self.executor = executor
        self.presenter = presenter
        self.source = source
    }

    /// Runs a whole script (from `-c` or a file). Every command is parsed first: with a usage
    /// error anywhere, nothing runs.
    public func run(script text: String, status: inout ExitStatus) async {
        let parsed: [(command: ShellCommand, line: Int)]
        switch Self.parseAll(text) {
        case .success(let commands):
            parsed = commands
        case .failure(let failure):
            let result = CommandResult.usage(failure.command, failure.error)
            presenter.show(result)
            status.record(result)
            return
        }
        for (command, line) in parsed {
            guard await run(command, line: line, status: &status) else { return }
        }
    }

    /// Runs commands as lines arrive (standard input); stops at the first usage error. A
    /// command continued with a backslash, or still in quotes, waits for its next line; at the
    /// end of input what is left runs too, or is reported when a quote is left open.
    public func run(lines: AsyncStream<String>, status: inout ExitStatus) async {
        var pending = ""
        var pendingLine = 1
        var lineNumber = 0
        for await line in lines {
            lineNumber += 1
            if pending.isEmpty { pendingLine = lineNumber }
            pending += line
            guard !CommandTokenizer.continuesOnNextLine(pending) else {
                pending += "\n"
                continue
            }
            pending += "\n"
            // An open quote may close on a later line.
            guard let commands = try? CommandTokenizer.commands(in: pending, firstLine: pendingLine) else { continue }
            pending = ""
            guard await run(commands, status: &status) else { return }
        }
        guard !pending.isEmpty else { return }
        do {
            _ = await run(try CommandTokenizer.commands(in: pending, firstLine: pendingLine), status: &status)
        } catch {
            let result = CommandResult.usage("", error)
            presenter.show(result)
            status.record(result)
        }
    }

    /// Parses and runs `commands` in order; false when the script should stop (a usage error, `quit`).
    private func run(_ commands: [TokenizedCommand], status: inout ExitStatus) async -> Bool {
        for command in commands {
            let parsedCommand: ShellCommand
            do {
                parsedCommand = try CommandParser.parse(command.words)
            } catch {
                let result = CommandResult.usage(command.words.first ?? "", CommandSyntaxError(error.message, line: command.line))
                presenter.show(result)
                status.record(result)
                return false
            }
            guard await run(parsedCommand, line: command.line, status: &status) else { return false }
        }
        return true
    }

    /// Runs one command and shows its result, a failure with its `FILE:LINE`; false when the
    /// script should stop (`quit`, `skip`, an unmet `require`).
    private func run(_ command: ShellCommand, line: Int, status: inout ExitStatus) async -> Bool {
        if command == .quit {
            // Every command has one result, in --json too; in text quit prints nothing. Like
            // every result it follows the events that came before it: a message delivered just
            // before quit is printed, not cut off by the shutdown that mutes events.
            presenter.show(await executor.execute(command))
            return false
        }
        var result = await executor.execute(command)
        if !result.ok {
            result.location = source.map { "\($0):\(line)" } ?? "line \(line)"
            result.failedAt = WallClock.milliseconds()
        }
        presenter.show(result)
        status.record(result)
        if case .skipped = result.output { return false }
        return true
    }

    /// A command of a script that does not parse: its first word, and why.
    struct ParseFailure: Error {
        var command: String
        var error: CommandSyntaxError
    }

    /// Every command of `text`, parsed, with its line; the first usage error, with its line, otherwise.
    static func parseAll(_ text: String) -> Result<[(command: ShellCommand, line: Int)], ParseFailure> {
        let tokenized: [TokenizedCommand]
        do {
            tokenized = try CommandTokenizer.commands(in: text)
        } catch {
            return .failure(ParseFailure(command: "", error: error))
        }
        var commands: [(command: ShellCommand, line: Int)] = []
        for command in tokenized {
            do {
                commands.append((try CommandParser.parse(command.words), command.line))
            } catch {
                return .failure(ParseFailure(command: command.words.first ?? "", error: CommandSyntaxError(error.message, line: command.line)))
            }
        }
        return .success(commands)
    }
}
