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
    /// The command's name (`connect`, `expire-token`, ...), or the word typed for a usage error.
    public var command: String
    public var ok: Bool
    /// Why the command failed, in words a person can act on.
    public var error: String?
    /// The command could not be parsed (script mode: exit status 2).
    public var isUsageError: Bool
    /// The command failed because a profile did not load (script mode: exit status 3).
    public var isProfileError: Bool
    public var output: CommandOutput
    /// `FILE:LINE` (or `line N`) of the command in a script, set on failures.
    public var location: String?
    /// Milliseconds since the epoch when a script's command failed, set with `location`: where
    /// `imsh test --html` marks the failure on its account's lane.
    public var failedAt: Int64?

    public init(
        command: String, ok: Bool = true, error: String? = nil, isUsageError: Bool = false, isProfileError: Bool = false,
        output: CommandOutput = .none
    ) {
        self.command = command
        self.ok = ok
        self.error = error
        self.isUsageError = isUsageError
        self.isProfileError = isProfileError
        self.output = output
    }

    /// A failed command with nothing else to show.
    public static func failure(_ command: String, _ message: String, profileError: Bool = false) -> CommandResult {
        CommandResult(command: command, ok: false, error: message, isProfileError: profileError)
    }

    /// A command line that did not parse.
    public static func usage(_ command: String, _ error: CommandSyntaxError) -> CommandResult {
        CommandResult(command: command, ok: false, error: error.description, isUsageError: true)
    }

    /// One result for several accounts: ok when every account's outcome is.
    public static func outcomes(_ command: String, _ outcomes: [AccountOutcome]) -> CommandResult {
        let failed = outcomes.filter { !$0.ok }
        let error = failed.isEmpty ? nil : failed.count == 1 && outcomes.count == 1
            ? failed[0].message ?? "failed"
            : "\(failed.count) of \(outcomes.count) accounts failed"
        return CommandResult(command: command, ok: failed.isEmpty, error: error, output: .outcomes(outcomes))
    }
}
