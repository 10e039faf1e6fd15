import IMProcess

/// Runs a shell command and collects its standard output, within a deadline. Blocks the caller.
enum CommandRunner {
    /// The command's standard output, or why it failed (status, stderr's first line, timeout).
    static func run(_ command: String, deadline: ContinuousClock.Instant, limit: Int) -> Result<[UInt8], SourceFailure> {
        let output: ChildProcess.Output
        do {
            output = try ChildProcess.run("/bin/sh", ["-c", command], timeout: ContinuousClock.now.duration(to: deadline), limit: limit)
        } catch {
            return .failure(SourceFailure("\(error)"))
        }
        guard !output.timedOut else { return .failure(SourceFailure("the command did not finish in time")) }
        guard output.termination == .exited(0) else {
            let firstLine = String(decoding: output.stderr.prefix(400), as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? ""
            let how: String
            switch output.termination {
            case .exited(let status): how = "exited with status \(status)"
            case .signaled(let signal): how = "was killed by signal \(signal)"
            }
            return .failure(SourceFailure(firstLine.isEmpty ? "the command \(how)" : "the command \(how): \(firstLine)"))
        }
        return .success(output.stdout)
    }
}
