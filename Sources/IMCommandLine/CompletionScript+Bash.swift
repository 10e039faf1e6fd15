/// The bash script: one function on the shared skeleton (see `walk`), with compgen for the
/// current word. It needs bash 4 and nothing of the bash-completion package, so that it also
/// works sourced by hand, and tests can call it with COMP_WORDS and COMP_CWORD set.
extension CompletionScript {
    var bash: String {
        let dialect = Dialect(
            words: "COMP_WORDS", firstArgument: 1, cursor: "COMP_CWORD", pattern: { "\($0))" },
            reply: { bashReply($0, append: false) }, argumentReply: { bashReply($0, append: true) }, otherValue: nil,
            choices: { _, entries in bashReply(.words(entries.map(\.word)), append: false) ?? "" })
        let lines = [
            "\(functionName)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} program=${COMP_WORDS[0]} node=\"\" value=\"\" fresh=1 word i",
            "    local -A given=()",
            "    local -a forward=()",
            "    COMPREPLY=()",
            "    [[ $program == \"~/\"* ]] && program=$HOME/${program#\"~/\"}",
        ] + body(dialect) + ["}", "complete -F \(functionName) \(tree.name)"]
        return header(.bash) + lines.joined(separator: "\n") + "\n"
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
            return programListing(arguments, forwarding: forwarding) { "\(fill) -W \"$(\($0))\" -- \"$cur\")" }
        }
    }
}
