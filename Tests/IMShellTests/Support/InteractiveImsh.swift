import Foundation
import IMProcess
import IMThreads
import IMTransport
import Synchronization
import Testing
import TestSupport

/// The imsh binary on a fresh pseudo-terminal: the test types, reads the screen, and ends it.
final class InteractiveImsh {
    let terminal: PseudoTerminal
    let process: ChildProcess
    private let exited = DispatchSemaphore(value: 0)
    private let termination = TerminationBox()

    init(_ arguments: [String], home: String, environment: [String: String] = [:]) throws {
        terminal = try PseudoTerminal()
        var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "TERM": "xterm", "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        do {
            process = try ChildProcess.spawn(
                ImshProcess.binary, arguments, environment: variables, directory: home,
                stdin: .descriptor(terminal.slave), stdout: .descriptor(terminal.slave), stderr: .descriptor(terminal.slave))
        } catch {
            terminal.close()
            throw error
        }
        let (process, exited, termination) = (self.process, self.exited, self.termination)
        Thread.detachNewThread {
            let ended = process.wait()
            termination.value.withLock { $0 = ended }
            exited.signal()
        }
    }

    /// Types `text` as keystrokes.
    func type(_ text: String) {
        terminal.send(text)
    }

    /// Sends `signal` to imsh.
    func signal(_ number: Int32) {
        process.signal(number)
    }

    /// Waits for the screen to satisfy `condition`; records an issue with the screen if it never does.
    @discardableResult
    func expectScreen(
        _ what: String, timeout: Duration = .seconds(20), sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ condition: (ScreenModel) -> Bool
    ) async -> ScreenModel {
        let (screen, met) = await terminal.waitForScreen(timeout: timeout, condition)
        if !met {
            let rows = screen.allLines.enumerated().map { "|\($0.element)" }.joined(separator: "\n")
            Issue.record("screen never showed \(what)\n\(rows)\ncursor at row \(screen.row), column \(screen.column)", sourceLocation: sourceLocation)
        }
        return screen
    }

    /// Whether the screen satisfies `condition` within `timeout`, recording nothing.
    func screenShows(within timeout: Duration, _ condition: (ScreenModel) -> Bool) async -> Bool {
        await terminal.waitForScreen(timeout: timeout, condition).1
    }

    /// The exit status once imsh ends within `timeout`; nil (after killing it) otherwise.
    func waitForExit(timeout: Duration = .seconds(20)) async -> Int32? {
        let exited = self.exited
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        let finished = await BlockingCall.run { exited.wait(timeout: deadline) == .success }
        guard finished else {
            process.signal(SIGKILL)
            exited.wait()
            return nil
        }
        exited.signal()
        return termination.value.withLock { $0 }?.status
    }

    /// Kills imsh if it still runs, and closes the terminal.
    func close() {
        if termination.value.withLock({ $0 }) == nil {
            process.signal(SIGKILL)
            exited.wait()
            exited.signal()
        }
        terminal.close()
    }
}

/// How the child ended, once it has; shared with the thread that waits for it.
private final class TerminationBox: Sendable {
    let value = Mutex<ChildProcess.Termination?>(nil)
}
