/// The words after a command's name, with the options its definition declares.
struct CommandInput: Sendable {
    let command: String
    let words: ArraySlice<String>
    let valueOptions: Set<String>
    let flagOptions: Set<String>

    /// The words split into options and positionals; an option the command does not declare is a usage error.
    func arguments() throws(CommandSyntaxError) -> CommandArguments {
        try CommandArguments(words, command: command, valueOptions: valueOptions, flagOptions: flagOptions)
    }
}
