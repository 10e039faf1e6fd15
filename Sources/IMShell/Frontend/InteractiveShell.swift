import IMProfiles
import IMStore
import LineEditor
#if canImport(Glibc)
import Glibc
#endif

/// The REPL: a prompt with the active profile, completion, history, and events printed above
/// the line being typed.
public struct InteractiveShell: Sendable {
    let executor: CommandExecutor
    let json: Bool
    let style: TerminalStyle

    public init(executor: CommandExecutor, json: Bool, style: TerminalStyle) {
        self.executor = executor
        self.json = json
        self.style = style
    }

    /// Reads and runs commands until `quit` or Ctrl-D, then shuts everything down.
    public func run() async -> Int32 {
        let editor: LineEditor
        do throws(LineEditorError) {
            editor = try makeEditor(historyFile: historyFile())
        } catch {
            guard case .historyFile = error else {
                StandardOutput().write("imsh: \(error)", isError: true)
                return ExitStatus.commandFailed
            }
            StandardOutput().write("imsh: \(error); history is not kept this time", isError: true)
            do {
                editor = try makeEditor(historyFile: nil)
            } catch {
                StandardOutput().write("imsh: \(error)", isError: true)
                return ExitStatus.commandFailed
            }
        }
        let presenter = Presenter(format: json ? .json : .text(TextRenderer(style: style)), redactor: executor.redactor, output: EditorOutput(editor: editor))
        executor.router.connect { presenter.show($0) }
        executor.book.onChange { editor.refreshPrompt() }
        presenter.note(banner())
        let interrupter = CommandInterrupter { editor.close() }
        while let line = await editor.readLine() {
            guard await runLine(line, presenter: presenter, interrupter: interrupter) else { break }
        }
        interrupter.stop()
        let active = await executor.shutdown()
        var farewell = "bye"
        if active > 0 { farewell = "disconnected \(active) session\(active == 1 ? "" : "s"); " + farewell }
        presenter.note(farewell)
        editor.close()
        return ExitStatus.success
    }

    /// Runs the commands of one line; false after `quit`.
    private func runLine(_ line: String, presenter: Presenter, interrupter: CommandInterrupter) async -> Bool {
        let commands: [TokenizedCommand]
        do {
            commands = try CommandTokenizer.commands(in: line)
        } catch {
            presenter.show(.usage("", CommandSyntaxError(error.message)))
            return true
        }
        for tokenized in commands {
            let command: ShellCommand
            do {
                command = try CommandParser.parse(tokenized.words)
            } catch {
                presenter.show(.usage(tokenized.words.first ?? "", error))
                return true
            }
            let executor = self.executor
            if command == .quit {
                // After the events that came before it, as every result.
                presenter.show(await executor.execute(command))
                return false
            }
            let (result, interrupted) = await interrupter.run { await executor.execute(command) }
            presenter.show(result)
            // As sh does: Ctrl-C ends the line, not only its command (`sleep 30; deactivate
            // bob` interrupted must not go on to deactivate).
            if interrupted { break }
        }
        return true
    }

    private func makeEditor(historyFile: String?) throws(LineEditorError) -> LineEditor {
        let prompt = ShellPrompt(context: executor.context, book: executor.book, style: style)
        let completer = ShellCompleter(context: executor.context)
        let policy = HistoryPolicy(redactor: executor.redactor)
        let options = LineEditor.Options(
            prompt: { prompt.text() }, completion: { completer.candidates(lineBeforeCursor: $0) },
            historyFile: historyFile, historyFilter: { policy.allows($0) })
        return try LineEditor(programName: "imsh", options: options)
    }

    /// `DATA/history`, creating the data directory (0700) if needed; nil when it cannot be.
    private func historyFile() -> String? {
        let directory = executor.context.dataDirectory.path
        guard DataFiles.makeDirectory(directory) else {
            StandardOutput().write("imsh: cannot create \(directory): \(String(cString: strerror(errno))); history is not kept", isError: true)
            return nil
        }
        if let unsafe = DataDirectory.unsafety(of: directory) {
            StandardOutput().write("imsh: \(unsafe); history is not kept", isError: true)
            return nil
        }
        return "\(directory)/history"
    }

    private func banner() -> String {
        let context = executor.context
        var lines = [
            style.bold("imsh \(ShellOptions.spec.version)"),
            "  profiles  \(context.profileDirectory)",
            "  data      \(context.dataDirectory)",
        ]
        lines += context.notes.map { "note: \($0)" }
        if let active = context.activeProfile, let profile = context.profiles.profile(named: active) {
            let server = profile.server == .embedded ? "the embedded server" : "\(profile.server)"
            lines.append("profile \(style.bold(active)) is active: \(profile.accounts.count) accounts on \(server).")
        }
        lines.append("Type help for the commands; TAB completes, Ctrl-D quits.")
        return lines.joined(separator: "\n")
    }
}
