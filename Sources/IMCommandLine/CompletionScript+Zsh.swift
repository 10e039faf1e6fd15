/// The zsh script: the shared skeleton (see `walk`), then zsh's own completers (`_files`,
/// `_describe`) for the current word, with each option's and subcommand's help. It works both
/// from a directory on `fpath` (as `_NAME`) and sourced after `compinit`.
extension CompletionScript {
    var zsh: String {
        let function = functionName
        let dialect = Dialect(
            words: "words", firstArgument: 2, cursor: "CURRENT", pattern: { "(\($0))" }, reply: zshReply,
            argumentReply: zshReply, otherValue: "(*) _message -e values ${value#--} ;;",
            choices: { kind, entries in
                let described = entries.map { single("\($0.word):\($0.help)") }.joined(separator: " ")
                return "replies=(\(described)); _describe -t \(kind) \(kind == "options" ? "option" : "command") replies"
            })
        let lines = [
            "#compdef \(tree.name)",
            header(.zsh),
            "\(function)() {",
            "    local cur=${words[CURRENT]} program=${words[1]} node=\"\" value=\"\" word",
            "    integer fresh=1 i",
            "    local -A given",
            "    local -a forward replies",
        ] + body(dialect) + [
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
            return programListing(arguments, forwarding: forwarding) { "replies=(${(f)\"$(\($0))\"}); compadd -a replies" }
        }
    }

    /// `text` in single quotes, any single quote in it closed, escaped and reopened.
    private func single(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
