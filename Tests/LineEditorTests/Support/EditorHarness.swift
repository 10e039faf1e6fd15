import LineEditor
import Testing
import TestSupport

/// A `LineEditor` on a fresh pseudo-terminal, with bounded waits for everything a test does.
///
/// The waits allow 10 s: the editors' tests run beside some 500 others on two cores, and a
/// prompt written 3 s after its read began was once taken for one never written (CI,
/// 2026-11-30). An editor that never writes it still fails.
final class EditorHarness: Sendable {
    let terminal: PseudoTerminal
    let editor: LineEditor

    init(options: LineEditor.Options = LineEditor.Options()) throws {
        terminal = try PseudoTerminal()
        var options = options
        options.terminalType = "xterm"
        do {
            editor = try LineEditor(input: terminal.slave, output: terminal.slave, programName: "imsh-test", options: options)
        } catch {
            terminal.close()
            throw error
        }
    }

    /// Starts a read and waits until the prompt is on the cursor's row.
    func startLine(prompt: String = "> ", sourceLocation: SourceLocation = #_sourceLocation) async -> Task<String?, Never> {
        let editor = self.editor
        let task = Task { await editor.readLine() }
        await expectScreen("prompt \(prompt.debugDescription)", sourceLocation: sourceLocation) { $0.showsOnly(prompt: prompt) }
        return task
    }

    /// The line a read returns, closing the editor if it has not come back within `timeout`.
    func line(of task: Task<String?, Never>, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        let editor = self.editor
        let watchdog = Task { () -> Bool in
            do { try await Task.sleep(for: timeout) } catch { return false }
            editor.close()
            return true
        }
        let line = await task.value
        watchdog.cancel()
        // The editor wrote all of the line's output before it answered; let the reader catch
        // up, so the next wait does not match a screen from before the newline.
        terminal.settle()
        if await watchdog.value {
            Issue.record("readLine did not return within \(timeout)\n\(dump(terminal.screen))", sourceLocation: sourceLocation)
        }
        return line
    }

    /// Waits for the screen to satisfy `condition`; records an issue with the screen if it never does.
    @discardableResult
    func expectScreen(
        _ what: String,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (ScreenModel) -> Bool
    ) async -> ScreenModel {
        let (screen, met) = await terminal.waitForScreen(timeout: timeout, condition)
        if !met {
            let output = String(decoding: terminal.bytes.suffix(600), as: UTF8.self)
            Issue.record("screen never showed \(what)\n\(dump(screen))\noutput ends with \(output.debugDescription)", sourceLocation: sourceLocation)
        }
        return screen
    }

    func close() {
        editor.close()
        terminal.close()
    }

    private func dump(_ screen: ScreenModel) -> String {
        let rows = screen.lines.enumerated().map { "\($0.offset == screen.row ? ">" : "|")\($0.element)" }
        return rows.joined(separator: "\n") + "\ncursor at row \(screen.row), column \(screen.column)"
    }
}

/// Keys as a terminal sends them.
