/// A command of its own that a program's first argument selects (`imsh bench`, `imserver cert`):
/// an entry of the program's `CommandTable`.
public struct Subcommand: Sendable {
    /// The word that selects it: the last word of its spec's name (`imsh bench` is `bench`).
    public let name: String
    /// Its spec: its name (`imsh bench`), options and `--help`.
    public let spec: CommandSpec
    /// What follows its word in the program's usage (`[options] PATH...`).
    public let synopsis: String
    /// What shell completion offers after its word.
    public let completion: CompletionTree
    /// Runs it with the arguments after its word; returns the exit status.
    public let run: @Sendable (_ arguments: [String]) async -> Int32

    /// `completion` defaults to the spec's options with nothing for the arguments.
    public init(
        _ spec: CommandSpec, synopsis: String, completion: CompletionTree? = nil,
        run: @escaping @Sendable (_ arguments: [String]) async -> Int32
    ) {
        self.name = spec.word
        self.spec = spec
        self.synopsis = synopsis
        self.completion = completion ?? CompletionTree(spec)
        self.run = run
    }

    /// Its line in the program's usage: its word, its synopsis, and where its own help is.
    var usage: String { "\(name) \(synopsis) (see '\(spec.name) --help')" }
}
