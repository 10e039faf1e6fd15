import IMProcess
#if canImport(Glibc)
import Glibc
#endif

/// The lines imserver prints while it starts, read from its pipes or from its log file as that
/// grows. Blocks: used on the launcher's thread of its own.
struct ServerLines {
    private let child: ChildProcess
    private let output: ImserverLauncher.Output
    /// The pipes' reader (no log).
    private var pipes: LineReader?
    /// A descriptor of our own on the log, read from the start (its offset is not the server's).
    private var log: Int32 = -1
    /// Everything read from the log, for a failure's message.
    private var logged: [UInt8] = []
    private var pending: [UInt8] = []

    init(output: ImserverLauncher.Output, child: ChildProcess) {
        self.child = child
        self.output = output
        switch output {
        case .closedOnceListening:
            pipes = LineReader(stdout: child.stdout ?? -1, stderr: child.stderr ?? -1)
        case .kept:
            // The caller reads on after the listening line: nothing past it is taken.
            pipes = LineReader(stdout: child.stdout ?? -1, stderr: -1, byteByByte: true)
        case .log(let path):
            log = open(path, O_RDONLY | O_CLOEXEC)
        }
    }

    /// The next line, without its newline; nil at `deadline`, or once the server has ended and
    /// said all it said.
    mutating func next(until deadline: ContinuousClock.Instant) -> String? {
        if pipes != nil { return pipes?.nextLine(within: ContinuousClock.now.duration(to: deadline)) }
        guard log >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                defer { pending.removeSubrange(...end) }
                return String(decoding: pending[..<end], as: UTF8.self)
            }
            // Whether it ended is asked before reading: what it wrote before it ended is read then.
            let ended = child.hasEnded
            let count = read(log, &buffer, buffer.count)
            if count > 0 {
                pending.append(contentsOf: buffer[..<count])
                logged.append(contentsOf: buffer[..<count])
                continue
            }
            guard count == 0 || errno == EINTR else { return nil }
            if count == 0 && (ended || ContinuousClock.now >= deadline) { return nil }
            // A file has no end-of-file to wait on while its writer runs: look again shortly.
            usleep(20_000)
        }
    }

    /// Reads what a server that ended (killed, reaped) left unread, for `said`.
    mutating func drain() {
        if pipes != nil {
            pipes?.drainErrors(within: .seconds(1))
        } else {
            while next(until: .now) != nil {}
        }
    }

    /// What the server said, for a failed start's error: its standard error, or the end of its
    /// log, or else its last line before it failed.
    func said(earlier: [String]) -> String {
        let text: String
        if log >= 0 {
            text = String(decoding: logged.suffix(1_500), as: UTF8.self)
        } else if let errors = pipes?.errors, !errors.isEmpty {
            text = errors
        } else {
            text = earlier.last ?? ""
        }
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return trimmed.isEmpty ? "it said nothing" : trimmed
    }

    /// Closes what the caller does not read on: the pipes but a kept standard output of a server
    /// that listens (its later writes to a closed pipe fail with EPIPE, which imserver ignores),
    /// and our descriptor on the log.
    func close(listening: Bool) {
        if case .kept = output, listening { return }
        pipes?.close()
        if log >= 0 { _ = Glibc.close(log) }
    }
}
