/// The zsh script: the same walk as bash's (see `walkArms`), then zsh's own completers
/// (`_files`, `_describe`) for the current word, with each option's and subcommand's help.
/// It works both from a directory on `fpath` (as `_NAME`) and sourced after `compinit`.
extension CompletionScript {
    var zsh: String {
        let function = functionName
        var lines = [
            "#compdef \(tree.name)",
            header(.zsh),
            "\(function)() {",
            "    local cur=${words[CURRENT]} program=${words[1]} node=\"\" value=\"\" word",
            "    integer fresh=1 i",
            "    local -A given",
            "    local -a forward replies",
            "    for ((i = 2; i < CURRENT; i++)); do",
            "        word=${words[i]}",
            "        if [[ -n $value ]]; then",
            "            given[$value]=$word",
            "            value=\"\"",
            "            continue",
            "        fi",
            "        case \"$node|$word\" in",
        ]
        lines += walkArms(indent: "        ", pattern: { "(\($0))" })
        lines += [
            "        (*\"|--\"*=*) given[${word%%=*}]=${word#*=} ;;",
            "        (*\"|-\"?*) ;;",
            "        (*) fresh=0 ;;",
            "        esac",
            "    done",
            "    if [[ -n $value ]]; then",
            "        case \"$node|$value\" in",
        ]
        for (path, tree) in tree.paths {
            for option in tree.options where option.takesValue {
                guard let body = zshReply(option.completion) else { continue }
                lines.append("        (\(quoted("\(path)|\(option.name)"))) \(body) ;;")
            }
        }
        lines += [
            "        (*) _message -e values ${value#--} ;;",
            "        esac",
            "        return",
            "    fi",
            "    if [[ $cur == -* ]]; then",
            "        case \"$node\" in",
        ]
        for (path, tree) in tree.paths {
            let entries = tree.options.flatMap { option in
                [option.shortName, option.name].compactMap { $0 }.map { single("\($0):\(option.help)") }
            }
            lines.append("        (\(quoted(path))) replies=(\(entries.joined(separator: " "))) ;;")
        }
        lines += [
            "        esac",
            "        _describe -t options option replies",
            "        return",
            "    fi",
            "    case \"$node\" in",
        ]
        for (path, tree) in tree.paths {
            var parts: [String] = []
            if !tree.subcommands.isEmpty {
                let entries = tree.subcommands.map { single("\($0.name):\($0.summary)") }
                parts.append("((fresh)) && { replies=(\(entries.joined(separator: " "))); _describe -t commands command replies }")
            }
            if let arguments = zshReply(tree.arguments) { parts.append(arguments) }
            guard !parts.isEmpty else { continue }
            lines.append("        (\(quoted(path))) \(parts.joined(separator: "; ")) ;;")
        }
        lines += [
            "    esac",
            "}",
            "",
            "if [[ $funcstack[1] == \(function) ]]; then",
            "    \(function) \"$@\"",
            "else",
            "    compdef \(function) \(tree.name)",
            "fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What offers `completion` for the current word; nil when it offers nothing.
    private func zshReply(_ completion: ValueCompletion) -> String? {
        switch completion {
        case .none:
            return nil
        case .files:
            return "_files"
        case .directories:
            return "_files -/"
        case .words(let words):
            return "compadd -- \(words.map(quoted).joined(separator: " "))"
        case .program(let arguments, let forwarding):
            let forward = forwarding.map { "[[ -n ${given[\($0)]+set} ]] && forward+=(\($0) \"${given[\($0)]}\")" }
            let call = "\"$program\" \(arguments.map(quoted).joined(separator: " ")) \"${forward[@]}\" 2>/dev/null"
            return (forward + ["replies=(${(f)\"$(\(call))\"})", "compadd -a replies"]).joined(separator: "; ")
        }
    }

    /// `text` in single quotes, any single quote in it closed, escaped and reopened.
    private func single(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
