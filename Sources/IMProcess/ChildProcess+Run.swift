import CProcess
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What a finished `run` collected.
    public struct Output: Sendable {
        public var termination: Termination
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// The child was killed at the deadline, or when the run was cancelled.
        public var timedOut: Bool
    }

    /// Runs `executable` to its end, feeding `input` on standard input and collecting at most
    /// `limit` bytes of each output. It runs in a process group of its own: at `timeout` the
    /// group gets SIGTERM, then SIGKILL after `grace`; and once the child has ended, whatever it
    /// left running in its group is killed, and so, in a process that called `Orphans.adopt()`,
    /// is what it left in other groups and sessions: nothing it started outlives the run.
    /// `cancellation` (or `cancelRuns()`, at the end of the process) brings the deadline forward
    /// to now. Blocks the calling thread.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: [UInt8]? = nil, timeout: Duration, grace: Duration = .milliseconds(500), limit: Int = 1 << 24,
        cancellation: RunCancellation = RunCancellation()
    ) throws(ChildProcessError) -> Output {
        let key = ObjectIdentifier(cancellation)
        RunCancellation.live.withLock { $0[key] = cancellation }
        defer { _ = RunCancellation.live.withLock { $0.removeValue(forKey: key) } }
        let (mark, environment) = Orphans.marking(environment)
        let child = try spawn(executable, arguments, environment: environment, directory: directory,
                              stdin: input == nil ? .null : .pipe, ownGroup: true)
        if let input, let stdin = child.stdin {
            // Small inputs fit the pipe; a child that never reads gets SIGPIPE-free EPIPE here.
            var rest = input[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { send(stdin, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                let count = written >= 0 ? written : rest.withUnsafeBytes { Glibc.write(stdin, $0.baseAddress, $0.count) }
                if count < 0 { if errno == EINTR { continue }; break }
                rest = rest.dropFirst(count)
            }
            child.closeStandardInput()
        }
        var outputs: [Int32: [UInt8]] = [:]
        var open = [child.stdout, child.stderr].compactMap { $0 }
        var deadline = ContinuousClock.now + timeout
        var timedOut = false
        var cancelWatch = cancellation.descriptor >= 0 ? Optional(cancellation.descriptor) : nil
        // The child's end, pollable: a child that closed its outputs and runs on (`exec >&-`)
        // is held to the deadline too, rather than waited for without one.
        let childEnd = pidfd_open(child.pid, 0)
        defer { if childEnd >= 0 { close(childEnd) } }
        var ended = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while !open.isEmpty || !ended {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                // Past the deadline: ask the whole group to end, then, after the grace, stop asking.
                if timedOut { break }
                timedOut = true
                child.signalGroup(SIGTERM)
                deadline = ContinuousClock.now + grace
                continue
            }
            let watched = open + (cancelWatch.map { [$0] } ?? []) + (ended || childEnd < 0 ? [] : [childEnd])
            var descriptors = watched.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            // Without a pidfd (a kernel before 5.3), the child's end is looked for every 50 ms.
            let most = childEnd < 0 && open.isEmpty ? 50 : 60_000
            let milliseconds = Int32(min(left / .milliseconds(1), Double(most))) + 1
            guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) >= 0 || errno == EINTR else { break }
            if childEnd < 0 && open.isEmpty { ended = child.hasEnded }
            for entry in descriptors where entry.revents != 0 {
                if entry.fd == cancelWatch {
                    cancelWatch = nil
                    deadline = ContinuousClock.now
                    continue
                }
                if entry.fd == childEnd {
                    ended = true
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    let kept = outputs[entry.fd, default: []].count
                    outputs[entry.fd, default: []] += buffer[..<min(count, max(0, limit - kept))]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        [child.stdout, child.stderr].compactMap { $0 }.forEach { _ = close($0) }
        if timedOut { child.signalGroup(SIGKILL) }
        child.waitUnreaped()
        child.signalGroup(SIGKILL)
        let termination = child.wait()
        if let mark { Orphans.sweep(mark) }
        return Output(termination: termination, stdout: child.stdout.flatMap { outputs[$0] } ?? [],
                      stderr: child.stderr.flatMap { outputs[$0] } ?? [], timedOut: timedOut)
    }
}
