/// The bash script: one function that walks the words before the cursor through the tree, then
/// completes the current one. It needs bash 4 and nothing of the bash-completion package, so that
/// it also works sourced by hand, and tests can call it with COMP_WORDS and COMP_CWORD set.
extension CompletionScript {
    var bash: String {
        let function = functionName
        var lines = [
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} program=${COMP_WORDS[0]} node=\"\" value=\"\" fresh=1 word i",
            "    local -A given=()",
            "    local -a forward=()",
            "    COMPREPLY=()",
            "    [[ $program == \"~/\"* ]] && program=$HOME/${program#\"~/\"}",
            "    # The command (subcommand words), the options given with their values, and whether",
            "    # an option's value is due at the cursor.",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -n $value ]]; then",
            "            given[$value]=$word",
            "            value=\"\"",
            "            continue",
            "        fi",
            "        case \"$node|$word\" in",
        ]
        lines += walkArms(indent: "        ", pattern: { "\($0))" })
        lines += [
            "        *\"|--\"*=*) given[${word%%=*}]=${word#*=} ;;",
            "        *\"|-\"?*) ;;",
            "        *) fresh=0 ;;",
            "        esac",
            "    done",
            "    if [[ -n $value ]]; then",
            "        case \"$node|$value\" in",
        ]
        for (path, tree) in tree.paths {
            for option in tree.options where option.takesValue {
                guard let body = bashReply(option.completion, append: false) else { continue }
                lines.append("        \(quoted("\(path)|\(option.name)"))) \(body) ;;")
            }
        }
        lines += [
            "        esac",
            "        return 0",
            "    fi",
            "    if [[ $cur == -* ]]; then",
            "        case \"$node\" in",
        ]
        for (path, tree) in tree.paths {
            lines.append("        \(quoted(path))) \(bashReply(.words(tree.optionWords), append: false) ?? "") ;;")
        }
        lines += [
            "        esac",
            "        return 0",
            "    fi",
            "    case \"$node\" in",
        ]
        for (path, tree) in tree.paths {
            var parts: [String] = []
            if !tree.subcommands.isEmpty, let words = bashReply(.words(tree.subcommands.map(\.name)), append: false) {
                parts.append("((fresh)) && \(words)")
            }
            if let arguments = bashReply(tree.arguments, append: true) { parts.append(arguments) }
            guard !parts.isEmpty else { continue }
            lines.append("        \(quoted(path))) \(parts.joined(separator: "; ")) ;;")
        }
        lines += [
            "    esac",
            "    return 0",
            "}",
            "complete -F \(function) \(tree.name)",
        ]
        return header(.bash) + lines.joined(separator: "\n") + "\n"
    }

    /// The arms of the walk's `case "$node|$word"`, shared by both shells: an option that takes a
    /// value makes the next word its value (kept under the long name), a subcommand's name right
    /// after its parent's options enters it. `pattern` writes a case pattern in the shell's syntax.
    func walkArms(indent: String, pattern: (String) -> String) -> [String] {
        var lines: [String] = []
        for (path, tree) in tree.paths {
            for option in tree.options where option.takesValue {
                let names = [option.shortName, option.name].compactMap { $0 }.map { quoted("\(path)|\($0)") }
                lines.append("\(indent)\(pattern(names.joined(separator: "|"))) value=\(option.name) ;;")
            }
            for subcommand in tree.subcommands {
                let target = path.isEmpty ? subcommand.name : "\(path) \(subcommand.name)"
                lines.append("\(indent)\(pattern(quoted("\(path)|\(subcommand.name)"))) ((fresh)) && node=\(quoted(target)) ;;")
            }
        }
        return lines
    }

    /// The commands that fill COMPREPLY (or add to it) with what `completion` offers for `$cur`;
    /// nil when it offers nothing.
    private func bashReply(_ completion: ValueCompletion, append: Bool) -> String? {
        let fill = append ? "mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen" : "mapfile -t COMPREPLY < <(compgen"
        switch completion {
        case .none:
            return nil
        case .files:
            return "compopt -o filenames 2>/dev/null; \(fill) -f -- \"$cur\")"
        case .directories:
            return "compopt -o filenames 2>/dev/null; \(fill) -d -- \"$cur\")"
        case .words(let words):
            return "\(fill) -W \(quoted(words.joined(separator: " "))) -- \"$cur\")"
        case .program(let arguments, let forwarding):
            let forward = forwarding.map { "[[ -n ${given[\($0)]+set} ]] && forward+=(\($0) \"${given[\($0)]}\")" }
            let call = "\"$program\" \(arguments.map(quoted).joined(separator: " ")) \"${forward[@]}\" 2>/dev/null"
            return (forward + ["\(fill) -W \"$(\(call))\" -- \"$cur\")"]).joined(separator: "; ")
        }
    }

    /// `text` in double quotes, for words of option and command names (no `$`, backquote or quote in them).
    func quoted(_ text: String) -> String { "\"\(text)\"" }
}
