/// A command as shell completion sees it: its options, its subcommands, what its arguments are.
///
/// Built from the same `CommandSpec`s the parsers use, so that a completion script generated
/// from it offers exactly the options the binary accepts.
public struct CompletionTree: Sendable {
    /// The word that selects the command: the program's name at the root, a subcommand's below.
    public var name: String
    /// One line shown next to the name where the shell shows descriptions (zsh).
    public var summary: String
    /// Every option, `--help` and `--version` included.
    public var options: [OptionSpec]
    /// Commands that the first argument selects (`imsh bench`, `imsh bench connect`).
    public var subcommands: [CompletionTree]
    /// What the other arguments are.
    public var arguments: ValueCompletion

    /// The tree of `spec`; its name is the last word of the spec's name (`imsh bench connect` is `connect`).
    public init(_ spec: CommandSpec, subcommands: [CompletionTree] = [], arguments: ValueCompletion = .none) {
        self.init(
            name: spec.word, summary: spec.summary,
            options: spec.options + CommandSpec.builtIn, subcommands: subcommands, arguments: arguments)
    }

    /// A subcommand spelled out, for one that shares its parent's spec (`imserver app block`).
    public init(
        name: String, summary: String, options: [OptionSpec], subcommands: [CompletionTree] = [],
        arguments: ValueCompletion = .none
    ) {
        self.name = name
        self.summary = summary
        self.options = options
        self.subcommands = subcommands
        self.arguments = arguments
    }

    /// Every command of the tree with its path: the subcommand words after the program's name,
    /// joined by spaces (empty at the root). Parents come before their subcommands.
    var paths: [(path: String, tree: CompletionTree)] {
        var result = [(path: "", tree: self)]
        for subcommand in subcommands {
            for (path, tree) in subcommand.paths {
                result.append((path.isEmpty ? subcommand.name : "\(subcommand.name) \(path)", tree))
            }
        }
        return result
    }

    /// Option names with their long name, the short one first when there is one.
    var optionWords: [String] {
        options.flatMap { [$0.shortName, $0.name].compactMap { $0 } }
    }
}
