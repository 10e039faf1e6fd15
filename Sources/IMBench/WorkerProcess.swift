import Foundation
import IMJSON
import IMProcess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One worker of `imsh bench connect --workers N` as its parent sees it: an imsh child with
/// pipes, spoken to in JSON lines (see `WorkerChannel`). Every call blocks: use `BlockingCall`.
final class WorkerProcess: Sendable {
    let share: WorkerShare
    let child: ChildProcess
    private let reader: Mutex<LineReader>
    /// Its counters so far (such as sessions connected), from its progress lines.
    let counts = Mutex<[String: Int]>([:])

    /// Starts this process's own executable as `imsh ARGUMENTS`.
    init(share: WorkerShare, arguments: [String]) throws(BenchError) {
        self.share = share
        let executable = ChildProcess.ownExecutable
        do {
            child = try ChildProcess.spawn(executable, arguments, stdin: .pipe, stdout: .pipe, stderr: .pipe)
        } catch {
            throw BenchError("worker \(share) cannot start: \(error)")
        }
        reader = Mutex(LineReader(stdout: child.stdout ?? -1, stderr: child.stderr ?? -1))
    }

    /// Writes `line` and a newline to the worker's standard input; false once it stopped reading.
    func send(_ line: String) -> Bool {
        var rest = Array((line + "\n").utf8)[...]
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { Glibc.write(child.stdin ?? -1, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            rest = rest.dropFirst(count)
        }
        return true
    }

    /// Reads lines until the event `name` (or, for nil, the result), counting progress on the way;
    /// nil at end of output or `deadline`.
    func next(_ name: String?, until deadline: ContinuousClock.Instant) -> JSONObject? {
        reader.withLock { reader in
            while let line = reader.nextLine(within: ContinuousClock.now.duration(to: deadline)) {
                guard let object = (try? JSONValue(parsing: line))?.objectValue else { continue }
                if object["event"] == "progress" {
                    var latest: [String: Int] = [:]
                    object.forEachMember { key, value in
                        if let number = value.integerValue { latest[key] = Int(number) }
                    }
                    counts.withLock { $0 = latest }
                } else if let name, object["event"] == .string(name) {
                    return object
                } else if name == nil, object["type"] == "worker" {
                    return object
                }
            }
            return nil
        }
    }

    /// Waits for the worker to end after its result; a failure when it did not exit 0.
    func finish() -> BenchError? {
        child.closeStandardInput()
        let said = errors()
        let ending = child.wait()
        return ending == .exited(0) ? nil : failure("ended with status \(ending.status)", said: said)
    }

    /// Kills the worker and says why it failed: what it wrote on standard error, else how it ended.
    func failure(_ what: String) -> BenchError {
        child.signal(SIGKILL)
        child.closeStandardInput()
        let said = errors()
        let ending = child.wait()
        return failure("\(what) (\(ending == .signaled(SIGKILL) ? "killed" : "status \(ending.status)"))", said: said)
    }

    private func failure(_ what: String, said: String) -> BenchError {
        BenchError("worker \(share) (pid \(child.pid)) \(what)\(said.isEmpty ? "" : ": \(said)")")
    }

    /// Standard error to its end (5 s at most), the pipes closed.
    private func errors() -> String {
        reader.withLock { reader -> String in
            reader.drainErrors(within: .seconds(5))
            reader.close()
            return reader.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Stops a worker that has not failed, because another one did.
    func stop() {
        child.signal(SIGKILL)
        child.closeStandardInput()
        _ = child.wait()
        reader.withLock { $0.close() }
    }
}
