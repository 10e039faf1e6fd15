import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a shell command and collects its standard output, within a deadline. Blocks the caller.
enum CommandRunner {
    /// The command's standard output, or why it failed (status, stderr's first line, timeout).
    static func run(_ command: String, deadline: ContinuousClock.Instant, limit: Int) -> Result<[UInt8], SourceFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(SourceFailure("cannot start /bin/sh: \(error)"))
        }
        var out: [UInt8] = []
        var err: [UInt8] = []
        let finished = drain([(output.fileHandleForReading.fileDescriptor, { out += $0 }),
                              (errors.fileHandleForReading.fileDescriptor, { err += $0 })],
                             until: deadline, limit: limit)
        guard finished else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return .failure(SourceFailure("the command did not finish in time"))
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let firstLine = String(decoding: err.prefix(400), as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? ""
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
            return .failure(SourceFailure(firstLine.isEmpty ? "the command \(how)" : "the command \(how): \(firstLine)"))
        }
        return .success(out)
    }

    /// Reads every descriptor to its end, keeping at most `limit` bytes of each; false at the deadline.
    private static func drain(
        _ sources: [(fd: Int32, append: ([UInt8]) -> Void)], until deadline: ContinuousClock.Instant, limit: Int
    ) -> Bool {
        var open = Dictionary(uniqueKeysWithValues: sources.map { ($0.fd, (append: $0.append, kept: 0)) })
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            let ready = BlockingIO.wait(Array(open.keys), for: Int16(POLLIN), until: deadline)
            guard !ready.isEmpty else { return false }
            for fd in ready {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    guard var entry = open[fd] else { continue }
                    let take = min(count, max(0, limit - entry.kept))
                    if take > 0 { entry.append(Array(buffer[..<take])) }
                    entry.kept += take
                    open[fd] = entry
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open[fd] = nil
                }
            }
        }
        return true
    }
}
