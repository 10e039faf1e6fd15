import IMEngine
import IMProfiles

extension CommandCatalog {
    /// Pausing and leaving.
    static let scriptCommands: [CommandDefinition] = [sleep, skip, quit]

    static let sleep = CommandDefinition(
        "sleep", "SECONDS", "pause for SECONDS (fractions allowed), letting events arrive",
        examples: ["sleep 0.5"],
        arguments: [.text],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(1...1)
            return .sleep(seconds: try CommandArguments.number(arguments.positionals[0], what: "sleep", in: 0...86_400))
        })

    static let skip = CommandDefinition(
        "skip", "REASON", "end the script here, counted as skipped by 'imsh test'",
        details: ["For a scenario that cannot run against this profile (no server API, a stock broker): the rest of the script is not run, the exit status is that of the commands before, and 'imsh test' counts the scenario as skipped with REASON."],
        examples: ["skip \"needs the server API\""],
        arguments: [.text],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            guard !arguments.positionals.isEmpty else { throw CommandSyntaxError("skip: give the reason, as in: skip \"needs the server API\"") }
            return .skip(reason: arguments.positionals.joined(separator: " "))
        })

    static let quit = CommandDefinition(
        "quit", "", "disconnect every session, stop the embedded server and leave",
        details: ["Ctrl-D on an empty line does the same."],
        aliases: ["exit"],
        parse: { input throws(CommandSyntaxError) in
            try input.arguments().expectCount(0...0)
            return .quit
        })
}
