/// A program's command line in one table: its own spec, and the subcommands its first argument
/// selects (`imsh test`, `imserver cert`).
///
/// The usage `--help` prints, the dispatch and the completion script all read it, so a
/// subcommand is in all three or in none (imserver's completion once lacked `cert`).
public struct CommandTable: Sendable {
    /// The program's own options and usage lines, without the subcommands'.
    public let root: CommandSpec
    /// In the order the usage lists them.
    public let subcommands: [Subcommand]
    /// What the program's own arguments complete to (a script file, or nothing).
    public let arguments: ValueCompletion

    public init(_ root: CommandSpec, arguments: ValueCompletion = .none, subcommands: [Subcommand]) {
        self.root = root
        self.arguments = arguments
        self.subcommands = subcommands
    }

    /// The program's spec with a usage line for each subcommand after its own: what `--help` prints.
    public var spec: CommandSpec {
        var spec = root
        spec.usage += subcommands.map(\.usage)
        return spec
    }

    /// The program and its subcommands for shell completion, the subcommands by name as shells list them.
    public var completionTree: CompletionTree {
        CompletionTree(root, subcommands: subcommands.map(\.completion).sorted { $0.name < $1.name }, arguments: arguments)
    }

    /// The subcommand the first of `arguments` names, and the arguments after it; nil for the program itself.
    public func selected(by arguments: [String]) -> (subcommand: Subcommand, arguments: [String])? {
        guard let first = arguments.first, let subcommand = subcommands.first(where: { $0.name == first }) else { return nil }
        return (subcommand, Array(arguments.dropFirst()))
    }

    /// When `arguments` ask for a completion script (`--completion SHELL`), prints it and exits
    /// (see `CompletionScript.printIfAsked`).
    public func printCompletionIfAsked(_ arguments: [String]) {
        CompletionScript.printIfAsked(arguments, spec: spec, tree: completionTree)
    }
}
