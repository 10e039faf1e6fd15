import Foundation
import IMJSON
import IMProcess
import IMThreads
import IMTransport
import Synchronization

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
    /// Output read past the last line returned.
    private let pending = Mutex<(bytes: [UInt8], head: Int, scanned: Int)>(([], 0, 0))

    /// Starts `executable` (nil: this process's) as `imsh --profiles PROFILES --data DATA --json`.
    init(executable: String?, profiles: String, data: String) throws(BenchError) {
        let target = executable
            ?? (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        do {
            child = try ChildProcess.spawn(
                target, ["--profiles", profiles, "--data", data, "--json"], stdin: .pipe, stdout: .pipe, stderr: .null)
        } catch {
            throw BenchError("cannot start imsh: \(error)")
        }
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
        let descriptor = child.stdout ?? -1
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let line = pending.withLock { pending -> String? in
                // Scan only what arrived since the last look: a long line comes in many chunks.
                let from = max(pending.head, pending.scanned)
                guard let end = pending.bytes[from...].firstIndex(of: UInt8(ascii: "\n")) else {
                    pending.scanned = pending.bytes.count
                    return nil
                }
                defer { pending.head = end + 1 }
                return String(decoding: pending.bytes[pending.head..<end], as: UTF8.self)
            }
            if let line { return line }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left / .milliseconds(1), 60_000)) + 1)
            if ready < 0, errno != EINTR { return nil }
            guard ready > 0 else { continue }
            let count = read(descriptor, &chunk, chunk.count)
            if count == 0 { return nil }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            pending.withLock { pending in
                pending.scanned = max(0, pending.scanned - pending.head)
                pending.bytes.removeFirst(pending.head)
                pending.head = 0
                pending.bytes.append(contentsOf: chunk[..<count])
            }
        }
    }
}
