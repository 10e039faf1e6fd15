/// Every shell command, declared once, in the order `help` lists them: the parser,
/// completion, `help` and the man page test all read this table, and the executor names each
/// result after its entry (`ShellCommand.definition`). A command's name is written nowhere else.
public enum CommandCatalog {
    public static let all: [CommandDefinition] = shellCommands + sessionCommands + adminCommands + accountCommands + faultCommands + scriptCommands

    /// The command called `name` (or one of its aliases).
    public static func named(_ name: String) -> CommandDefinition? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// Every name a command can be typed as.
    public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

    /// The closest command names to a mistyped `word`, for "did you mean".
    static func suggestions(for word: String) -> [String] {
        let lowered = word.lowercased()
        let scored = names.map { ($0, editDistance(lowered, $0)) }
        let best = scored.filter { $0.1 <= max(1, min(2, word.count / 3)) || $0.0.hasPrefix(lowered) }
        return best.sorted { $0.1 < $1.1 }.map(\.0)
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
