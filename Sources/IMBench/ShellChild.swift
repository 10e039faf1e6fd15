import IMJSON
import IMProcess
import IMThreads
import IMTransport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The imsh executable run as a script (`--json`, commands on standard input), timed command
/// by command: what a person or a CI job sees of the shell.
///
/// Reading blocks, so each command's wait runs on a thread of its own (`BlockingCall`).
final class ShellChild: Sendable {
    /// One command's answer: its result object, the events printed before it, and the time
    /// from sending the line to reading the result.
    struct Answer: Sendable {
        var result: JSONObject
        var events: Int
        var elapsed: Duration
        var ok: Bool { result["ok"] == true }
    }

    let child: ChildProcess
    private let reader: Mutex<LineReader>

    /// Starts `executable` (nil: this process's) as `imsh --profiles PROFILES --data DATA --json`.
    init(executable: String?, profiles: String, data: String) throws(BenchError) {
        let target = executable ?? ChildProcess.ownExecutable
        do {
            child = try ChildProcess.spawn(
                target, ["--profiles", profiles, "--data", data, "--json"], stdin: .pipe, stdout: .pipe, stderr: .null)
        } catch {
            throw BenchError("cannot start imsh: \(error)")
        }
        reader = Mutex(LineReader(stdout: child.stdout ?? -1, stderr: -1))
    }

    /// Sends `line` and waits (at most `timeout`) for its result.
    func run(_ line: String, timeout: Duration) async throws(BenchError) -> Answer {
        let child = self.child
        let outcome = await BlockingCall.run { [self] () -> Result<Answer, BenchError> in
            let started = ContinuousClock.now
            let bytes = Array((line + "\n").utf8)
            guard let input = child.stdin, bytes.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) == bytes.count else {
                return .failure(BenchError("imsh stopped reading its commands"))
            }
            var events = 0
            while let text = readLine(until: started + timeout) {
                // The shell answered when the line arrived: reading a large result is the bench's time, not the shell's.
                let arrived = ContinuousClock.now
                guard let object = (try? JSONValue(parsing: text))?.objectValue else { continue }
                if object["type"] == "result" {
                    return .success(Answer(result: object, events: events, elapsed: arrived - started))
                }
                if object["type"] == "event" { events += 1 }
            }
            return .failure(BenchError("imsh gave no result for '\(line)' within \(timeout)"))
        }
        return try outcome.get()
    }

    /// Ends imsh: `quit`, then SIGKILL if it is still there after `grace`.
    func stop(grace: Duration = .seconds(30)) async {
        let child = self.child
        await BlockingCall.run { [self] in
            _ = "quit\n".utf8CString.withUnsafeBufferPointer { write(child.stdin ?? -1, $0.baseAddress, $0.count - 1) }
            child.closeStandardInput()
            let deadline = ContinuousClock.now + grace
            while readLine(until: deadline) != nil {}
            if ContinuousClock.now >= deadline { child.signal(SIGKILL) }
            _ = child.wait()
        }
    }

    /// The next line of imsh's output; nil at end of file or at `deadline`.
    private func readLine(until deadline: ContinuousClock.Instant) -> String? {
        reader.withLock { $0.nextLine(within: ContinuousClock.now.duration(to: deadline)) }
    }
}
