import Foundation
import Testing
import TerminalTestSupport

/// The imsh binary on a fresh pseudo-terminal: the test types, reads the screen, and ends it.
final class InteractiveImsh {
    let terminal: PseudoTerminal
    let process: Process
    private let exited = DispatchSemaphore(value: 0)

    init(_ arguments: [String], home: String, environment: [String: String] = [:]) throws {
        terminal = try PseudoTerminal()
        process = Process()
        process.executableURL = URL(fileURLWithPath: ImshProcess.binary)
        process.arguments = arguments
        var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "TERM": "xterm", "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: home)
        let handle = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            terminal.close()
            throw error
        }
    }

    /// Types `text` as keystrokes.
    func type(_ text: String) {
        terminal.send(text)
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

    /// The exit status once imsh ends within `timeout`; nil (after killing it) otherwise.
    func waitForExit(timeout: Duration = .seconds(20)) async -> Int32? {
        let exited = self.exited
        let (seconds, attoseconds) = timeout.components
        let deadline = DispatchTime.now() + .milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
        let finished = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: exited.wait(timeout: deadline) == .success) }
        }
        guard finished else {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            return nil
        }
        return process.terminationStatus
    }

    /// Kills imsh if it still runs, and closes the terminal.
    func close() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        terminal.close()
    }
}

/// Keys as a terminal sends them.
