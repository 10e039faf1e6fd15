import IMCommandLine
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a bench is doing now, on standard output while it runs.
///
/// On a terminal one line is rewritten in place (carriage return, erase to end of line) a few
/// times a second; otherwise a plain line at most once a second per phase, so that logs stay
/// short. With `--json` nothing is printed: standard output carries the results only.
package final class ProgressLine: Sendable {
    enum Mode: Sendable {
        case terminal
        case lines
        case silent
    }

    let mode: Mode
    /// A line is on the terminal that the next output must erase first.
    private let dirty = Mutex(false)

    init(mode: Mode) { self.mode = mode }

    /// The mode for standard output: silent for JSON, in place on a terminal, else lines.
    static func forStandardOutput(json: Bool) -> ProgressLine {
        ProgressLine(mode: json ? .silent : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines))
    }

    /// Runs `body` while showing `phase: status()` every so often; clears the line afterwards.
    package func during<T, Failure: Error>(
        _ phase: String, status: @escaping @Sendable () -> String, _ body: () async throws(Failure) -> T
    ) async throws(Failure) -> T {
        guard mode != .silent else { return try await body() }
        let interval: Duration = mode == .terminal ? .milliseconds(200) : .seconds(1)
        let ticker = Task {
            while true {
                try await Task.sleep(for: interval)
                show("\(phase): \(status())")
            }
        }
        let outcome: Result<T, Failure>
        do throws(Failure) {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        ticker.cancel()
        _ = await ticker.result
        clear()
        return try outcome.get()
    }

    /// Writes a finished line (a result), erasing an in-place progress line first.
    package func write(_ text: String) {
        clear()
        CommandLineTool.writeOut(text)
    }

    private func show(_ line: String) {
        switch mode {
        case .silent:
            return
        case .lines:
            CommandLineTool.writeOut(line + "\n")
        case .terminal:
            dirty.withLock { dirty in
                CommandLineTool.writeOut("\r\u{1B}[K" + line)
                dirty = true
            }
        }
    }

    private func clear() {
        guard mode == .terminal else { return }
        dirty.withLock { dirty in
            if dirty { CommandLineTool.writeOut("\r\u{1B}[K") }
            dirty = false
        }
    }
}
