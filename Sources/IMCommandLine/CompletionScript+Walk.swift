/// The part both shells' scripts share: walk the words before the cursor through the tree, then
/// pick what completes the current word by the command reached and the option whose value is due.
/// The scripts differ in their syntax and their completers, which a `Dialect` supplies.
extension CompletionScript {
    /// How one shell writes what the skeleton needs.
    struct Dialect {
        /// The array of the line's words, and the index of the first argument in it.
        var words: String
        var firstArgument: Int
        /// The variable holding the index of the word at the cursor.
        var cursor: String
        /// A case pattern (`"a"|"b"`) as the shell writes it before the arm's commands.
        var pattern: (String) -> String
        /// The commands that offer `completion` for the current word; nil when it offers nothing.
        var reply: (ValueCompletion) -> String?
        /// The same for a command's arguments, which add to its subcommands where it has both.
        var argumentReply: (ValueCompletion) -> String?
        /// The arm for an option whose value has no completion, if the shell says something then.
        var otherValue: String?
        /// The commands that offer a command's subcommands, or its options, with their help.
        var choices: (_ kind: String, _ entries: [(word: String, help: String)]) -> String
    }

    /// The function's body after its declarations: the walk, then the current word's completion.
    func body(_ dialect: Dialect) -> [String] {
        var lines = walk(dialect)
        lines += ["    if [[ -n $value ]]; then", "        case \"$node|$value\" in"]
        lines += valueArms(dialect) + (dialect.otherValue.map { ["        \($0)"] } ?? [])
        lines += ["        esac", "        return", "    fi", "    if [[ $cur == -* ]]; then", "        case \"$node\" in"]
        lines += optionArms(dialect)
        lines += ["        esac", "        return", "    fi", "    case \"$node\" in"]
        lines += argumentArms(dialect)
        // The status of the last completer: zsh tells by it whether anything matched.
        return lines + ["    esac"]
    }

    /// The walk: sets `node` (subcommand words), `given` (options' values by long name), `value`
    /// (the long name of the option whose value is at the cursor) and `fresh` (no argument yet).
    func walk(_ dialect: Dialect) -> [String] {
        var lines = [
            "    for ((i = \(dialect.firstArgument); i < \(dialect.cursor); i++)); do",
            "        word=${\(dialect.words)[i]}",
            "        if [[ -n $value ]]; then",
            "            given[$value]=$word",
            "            value=\"\"",
            "            continue",
            "        fi",
            "        case \"$node|$word\" in",
        ]
        for (path, tree) in tree.paths {
            // An option with a value makes the next word its value, kept under its long name.
            for option in tree.options where option.takesValue {
                let names = [option.shortName, option.name].compactMap { $0 }.map { quoted("\(path)|\($0)") }
                lines.append("        \(dialect.pattern(names.joined(separator: "|"))) value=\(option.name) ;;")
            }
            // A subcommand's name before any argument enters it.
            for subcommand in tree.subcommands {
                let target = path.isEmpty ? subcommand.name : "\(path) \(subcommand.name)"
                lines.append("        \(dialect.pattern(quoted("\(path)|\(subcommand.name)"))) ((fresh)) && node=\(quoted(target)) ;;")
            }
        }
        return lines + [
            "        \(dialect.pattern("*\"|--\"*=*")) given[${word%%=*}]=${word#*=} ;;",
            "        \(dialect.pattern("*\"|-\"?*")) ;;",
            "        \(dialect.pattern("*")) fresh=0 ;;",
            "        esac",
            "    done",
        ]
    }

    /// The arms of `case "$node|$value"`: what each option's value completes to.
    func valueArms(_ dialect: Dialect) -> [String] {
        tree.paths.flatMap { path, tree in
            tree.options.filter(\.takesValue).compactMap { option in
                dialect.reply(option.completion).map { "        \(dialect.pattern(quoted("\(path)|\(option.name)"))) \($0) ;;" }
            }
        }
    }

    /// The arms of `case "$node"` for a word starting with `-`: each command's options.
    func optionArms(_ dialect: Dialect) -> [String] {
        tree.paths.map { path, tree in
            let entries = tree.options.flatMap { option in
                [option.shortName, option.name].compactMap { $0 }.map { (word: $0, help: option.help) }
            }
            return "        \(dialect.pattern(quoted(path))) \(dialect.choices("options", entries)) ;;"
        }
    }

    /// The arms of `case "$node"` for any other word: subcommands before any argument, then the arguments.
    func argumentArms(_ dialect: Dialect) -> [String] {
        tree.paths.compactMap { path, tree in
            var parts: [String] = []
            if !tree.subcommands.isEmpty {
                parts.append("((fresh)) && { \(dialect.choices("commands", tree.subcommands.map { ($0.name, $0.summary) })); }")
            }
            if let arguments = dialect.argumentReply(tree.arguments) { parts.append(arguments) }
            return parts.isEmpty ? nil : "        \(dialect.pattern(quoted(path))) \(parts.joined(separator: "; ")) ;;"
        }
    }

    /// The commands that add the program's own listing (`ValueCompletion.program`) to `array`:
    /// the options of `forwarding` given on the line go along.
    func programListing(_ arguments: [String], forwarding: [String], into fill: (String) -> String) -> String {
        let forward = forwarding.map { "[[ -n ${given[\($0)]+set} ]] && forward+=(\($0) \"${given[\($0)]}\")" }
        let call = "\"$program\" \(arguments.map(quoted).joined(separator: " ")) \"${forward[@]}\" 2>/dev/null"
        return (forward + [fill(call)]).joined(separator: "; ")
    }

    /// `text` in double quotes, for words of option and command names (no `$`, backquote or quote in them).
    func quoted(_ text: String) -> String { "\"\(text)\"" }
}
