/// What an executable accepts and how it describes itself in `--help`.
public struct CommandSpec: Sendable {
    /// The executable's name, as shown in messages.
    public var name: String
    /// The version printed by `--version`.
    public var version: String
    /// A one-line summary of what the command does.
    public var summary: String
    /// Usage lines without the leading `usage:`.
    public var usage: [String]
    /// Options besides `--help` and `--version`, which every command has.
    public var options: [OptionSpec]
    /// Free text printed after the options (examples, environment, files).
    public var epilogue: String

    public init(
        name: String, version: String, summary: String, usage: [String],
        options: [OptionSpec] = [], epilogue: String = ""
    ) {
        self.name = name
        self.version = version
        self.summary = summary
        self.usage = usage
        self.options = options
        self.epilogue = epilogue
    }

    /// The word that selects the command: the last word of its name (`imsh bench connect` is `connect`).
    public var word: String { name.split(separator: " ").last.map(String.init) ?? name }

    static let builtIn: [OptionSpec] = [
        OptionSpec("--help", short: "-h", help: "show this help and exit"),
        OptionSpec("--version", help: "show the version and exit"),
    ]

    /// The full text of `--help`.
    public var helpText: String {
        var lines = ["\(name): \(summary)", ""]
        for (index, line) in usage.enumerated() {
            lines.append((index == 0 ? "usage: " : "       ") + "\(name) \(line)")
        }
        lines.append("")
        lines.append("options:")
        let all = options + Self.builtIn
        let width = all.map(\.synopsis.count).max() ?? 0
        for option in all {
            let pad = String(repeating: " ", count: width - option.synopsis.count)
            lines.append("  \(option.synopsis)\(pad)  \(option.help)")
        }
        if !epilogue.isEmpty {
            lines.append("")
            lines.append(epilogue)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
