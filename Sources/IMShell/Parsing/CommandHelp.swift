/// What `help` says about one command, and what completion offers for it.
public struct CommandHelp: Sendable, Equatable {
    public var name: String
    /// The arguments, as in `connect ACCOUNT...|all [--timeout S] [--kick-enable]`.
    public var synopsis: String
    /// One line.
    public var summary: String
    /// Paragraphs explaining the command.
    public var details: [String]
    public var examples: [String]
    /// The options it takes, with their dashes, for completion.
    public var options: [String]
    /// Other names the command answers to.
    public var aliases: [String]

    init(
        _ name: String, _ synopsis: String, _ summary: String, details: [String] = [], examples: [String] = [],
        options: [String] = [], aliases: [String] = []
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.details = details
        self.examples = examples
        self.options = options
        self.aliases = aliases
    }

    /// `name synopsis`.
    public var usage: String { synopsis.isEmpty ? name : "\(name) \(synopsis)" }
}
