import Foundation
import IMProcess
import Synchronization
import TestSupport

/// imsh started on a sandbox and left running: commands go to its standard input as a script
/// does, its output to files in the sandbox, and the test ends it by `quit` or by a signal.
final class RunningImsh: Sendable {
    let process: ChildProcess
    /// Where standard output and standard error go, for a failing test's message.
    let outputPath: String
    /// Whether the process was reaped (its pid may then belong to another) and its input closed.
    private let state = Mutex((reaped: false, inputClosed: false))

    /// Starts `imsh --profiles … --data … ARGUMENTS` on `sandbox` (`imsh ARGUMENTS` when not
    /// `inSandbox`, for a subcommand such as `test`); `name` names the output file.
    init(_ sandbox: Sandbox, _ arguments: [String], name: String, inSandbox: Bool = true) throws {
        outputPath = "\(sandbox.root)/\(name).out"
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw TestFailure("cannot create \(outputPath)") }
        defer { close(output) }
        process = try ChildProcess.spawn(
            ImshProcess.binary, (inSandbox ? ["--profiles", sandbox.profiles, "--data", sandbox.data] : []) + arguments,
            environment: ImshProcess.environment(home: sandbox.home), directory: sandbox.home,
            stdin: .pipe, stdout: .descriptor(output), stderr: .descriptor(output))
    }

    /// Types `line` (a newline is added).
    func send(_ line: String) throws {
        guard let input = process.stdin else { throw TestFailure("imsh has no standard input") }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw TestFailure("cannot write to imsh: \(String(cString: strerror(errno)))") }
    }

    /// Closes imsh's standard input: the end of its script.
    func closeInput() {
        let close = state.withLock { state in
            defer { state.inputClosed = true }
            return !state.inputClosed
        }
        if close { process.closeStandardInput() }
    }

    /// Everything imsh printed so far.
    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// Kills imsh with SIGKILL and waits for it to be gone.
    func kill() async throws {
        process.signal(SIGKILL)
        _ = try await finish(within: .seconds(10))
    }

    /// Waits up to `limit` for imsh to end; past it kills it and returns nil.
    func finish(within limit: Duration) async throws -> ChildProcess.Termination? {
        let process = self.process
        let termination = try await offPool { () -> ChildProcess.Termination? in
            let deadline = ContinuousClock.now + limit
            var status: Int32 = 0
            while ContinuousClock.now < deadline {
                let pid = waitpid(process.pid, &status, WNOHANG)
                if pid == process.pid {
                    let signal = status & 0x7F
                    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
                }
                if pid < 0 && errno != EINTR { throw TestFailure("waitpid: \(String(cString: strerror(errno)))") }
                usleep(10_000)
            }
            process.signal(SIGKILL)
            _ = process.wait()
            return nil
        }
        state.withLock { $0.reaped = true }
        return termination
    }

    deinit {
        closeInput()
        // A test that failed before ending imsh must not leave it running.
        if !state.withLock({ $0.reaped }) {
            process.signal(SIGKILL)
            _ = process.wait()
        }
    }
}

