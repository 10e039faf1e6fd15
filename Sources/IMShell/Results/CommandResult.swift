import IMEngine
import IMProfiles
import IMTimeline

/// What a command produced, before any rendering.
public enum CommandOutput: Sendable {
    case none
    /// The command list (nil) or one command's help.
    case help(CommandDefinition?)
    case profiles(ProfilesReport)
    case activeProfile(String)
    case accounts(profile: String, [AccountStatus])
    /// One outcome per account, in the order the accounts were named.
    case outcomes([AccountOutcome])
    /// `status`: several accounts, or one in detail.
    case status([AccountStatus], detailed: Bool)
    case sent(SentMessage)
    case history(account: AccountReference, peer: String?, [StoredMessage])
    case connectionLog(account: AccountReference, [ConnectionLogEntry])
    /// This run's events, oldest first.
    case journal([ShellEvent])
    /// `timeline`: the lanes, and the files written (SVG, HTML).
    case timeline(Timeline, written: [String])
    case slept(seconds: Double)
    /// `expect`: what was expected of the account and, when met, what met it.
    case expectation(account: AccountReference, expected: String, met: String?)
    /// What was done, in one line (`server`, a `require` met).
    case done(String)
    /// `skip`, an unmet `require`: the script ends here, skipped for this reason.
    case skipped(reason: String)
}

/// The value a command returns to whichever front end ran it (REPL or script).
public struct CommandResult: Sendable {
    /// How a command ended. One value rather than flags, so that a result is never both ok
    /// and failed; the exit status (`ExitStatus`) and the JSON members follow from it alone.
    public enum Outcome: Sendable, Equatable {
        case ok
        /// The command ran and failed, for this reason (script mode: exit status 1).
        case failed(String)
        /// The command could not be parsed (script mode: exit status 2; JSON `usage`).
        case usageError(String)
        /// The command failed because a profile did not load (script mode: exit status 3; JSON `profileError`).
        case profileError(String)
    }

    /// The command's name (`connect`, `expire-token`, ...), or the word typed for a usage error.
    /// `CommandExecutor.execute` sets it from the command it ran.
    public var command: String
    public var outcome: Outcome
    public var output: CommandOutput
    /// `FILE:LINE` (or `line N`) of the command in a script, set on failures.
    public var location: String?
    /// Milliseconds since the epoch when a script's command failed, set with `location`: where
    /// `imsh test --html` marks the failure on its account's lane.
    public var failedAt: Int64?

    public init(command: String, outcome: Outcome = .ok, output: CommandOutput = .none) {
        self.command = command
        self.outcome = outcome
        self.output = output
    }

    /// A result for `CommandExecutor.execute` to name after the command it ran.
    init(_ outcome: Outcome = .ok, output: CommandOutput = .none) {
        self.init(command: "", outcome: outcome, output: output)
    }

    public var ok: Bool { outcome == .ok }

    /// Why the command failed, in words a person can act on; nil when it did not.
    public var error: String? {
        switch outcome {
        case .ok: nil
        case .failed(let message), .usageError(let message), .profileError(let message): message
        }
    }

    /// A failed command with nothing else to show.
    public static func failure(_ command: String, _ message: String, profileError: Bool = false) -> CommandResult {
        CommandResult(command: command, outcome: profileError ? .profileError(message) : .failed(message))
    }

    /// A command line that did not parse.
    public static func usage(_ command: String, _ error: CommandSyntaxError) -> CommandResult {
        CommandResult(command: command, outcome: .usageError(error.description))
    }

    /// One result for several accounts: ok when every account's outcome is.
    public static func outcomes(_ command: String, _ outcomes: [AccountOutcome]) -> CommandResult {
        var result = Self.outcomes(outcomes)
        result.command = command
        return result
    }

    /// The same, for `CommandExecutor.execute` to name.
    static func outcomes(_ outcomes: [AccountOutcome]) -> CommandResult {
        let failed = outcomes.filter { !$0.ok }
        guard !failed.isEmpty else { return CommandResult(output: .outcomes(outcomes)) }
        let message = failed.count == 1 && outcomes.count == 1 ? failed[0].message ?? "failed" : "\(failed.count) of \(outcomes.count) accounts failed"
        return CommandResult(.failed(message), output: .outcomes(outcomes))
    }
}
