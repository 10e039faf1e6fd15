import IMProcess

/// Runs a shell command and collects its standard output, within a deadline. Blocks the caller.
enum CommandRunner {
    /// The command's standard output, or why it failed (status, stderr's first line, timeout).
    /// A command that fails may name the condition with `{"code": N}` on its standard output;
    /// one that does not finish in time is `unavailable`, like a URL that does not answer.
    /// `cancellation` ends it at once (a connect attempt given up).
    static func run(
        _ command: String, deadline: ContinuousClock.Instant, limit: Int, cancellation: RunCancellation
    ) -> Result<[UInt8], TokenFetchError> {
        let source = TokenSource.command(command)
        let output: ChildProcess.Output
        do {
            output = try ChildProcess.run(
                "/bin/sh", ["-c", command], timeout: ContinuousClock.now.duration(to: deadline), limit: limit, cancellation: cancellation)
        } catch {
            return .failure(TokenFetchError(source, "\(error)"))
        }
        guard !output.timedOut else {
            return .failure(TokenFetchError(source, "the command did not finish in time", condition: .unavailable))
        }
        guard output.termination == .exited(0) else {
            let firstLine = String(decoding: output.stderr.prefix(400), as: UTF8.self)
                .split(separator: "\n").first.map(String.init) ?? ""
            let how: String
            switch output.termination {
            case .exited(let status): how = "exited with status \(status)"
            case .signaled(let signal): how = "was killed by signal \(signal)"
            }
            let reason = firstLine.isEmpty ? "the command \(how)" : "the command \(how): \(firstLine)"
            return .failure(TokenFetchError(source, reason, condition: TokenCondition.named(in: output.stdout) ?? .refused))
        }
        return .success(output.stdout)
    }
}
