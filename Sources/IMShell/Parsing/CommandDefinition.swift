/// One shell command, declared once: its name, help, options, what each argument completes
/// to, and how its words parse. The parser, completion, `help` and the man page test read it.
public struct CommandDefinition: Sendable {
    /// What a positional argument is, for completion.
    public enum Argument: Sendable, Equatable {
        /// A command name (`help`).
        case command
        /// A profile name.
        case profile
        /// One account, `ACCOUNT` or `PROFILE/ACCOUNT`.
        case account
        /// One or more accounts, or `all` / `PROFILE/all`; any argument after it ends the list.
        case selection
        /// A user id (a peer to send to).
        case user
        /// One of these words.
        case choice([String])
        /// Free text or a number: nothing to complete.
        case text
    }

    public let name: String
    /// The arguments, as in `connect ACCOUNT...|all [--timeout S] [--kick-enable]`.
    public let synopsis: String
    /// One line.
    public let summary: String
    /// Paragraphs explaining the command.
    public let details: [String]
    public let examples: [String]
    /// Options that take a value, with their dashes.
    public let valueOptions: [String]
    /// Options that stand alone.
    public let flagOptions: [String]
    /// The positional arguments in order (a `selection` may stand for several words).
    public let arguments: [Argument]
    /// Other names the command answers to.
    public let aliases: [String]
    let parse: @Sendable (CommandInput) throws(CommandSyntaxError) -> ShellCommand

    init(
        _ name: String, _ synopsis: String, _ summary: String, details: [String] = [], examples: [String] = [],
        valueOptions: [String] = [], flagOptions: [String] = [], arguments: [Argument] = [], aliases: [String] = [],
        parse: @escaping @Sendable (CommandInput) throws(CommandSyntaxError) -> ShellCommand
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.details = details
        self.examples = examples
        self.valueOptions = valueOptions
        self.flagOptions = flagOptions
        self.arguments = arguments
        self.aliases = aliases
        self.parse = parse
    }

    /// `name synopsis`.
    public var usage: String { synopsis.isEmpty ? name : "\(name) \(synopsis)" }

    /// Every option, value options first.
    public var options: [String] { valueOptions + flagOptions }

    /// The command `words` (those after the name) give, or a usage error saying what to fix.
    func parse(_ words: ArraySlice<String>) throws(CommandSyntaxError) -> ShellCommand {
        try parse(CommandInput(command: name, words: words, valueOptions: Set(valueOptions), flagOptions: Set(flagOptions)))
    }
}
