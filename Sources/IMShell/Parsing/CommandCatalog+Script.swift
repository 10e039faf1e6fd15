import IMEngine
import IMProfiles

extension CommandCatalog {
    /// Pausing and leaving.
    static let script: [CommandDefinition] = [
        CommandDefinition(
            "sleep", "SECONDS", "pause for SECONDS (fractions allowed), letting events arrive",
            examples: ["sleep 0.5"],
            arguments: [.text],
            parse: { input throws(CommandSyntaxError) in
                let arguments = try input.arguments()
                try arguments.expectCount(1...1)
                return .sleep(seconds: try CommandArguments.number(arguments.positionals[0], what: "sleep", in: 0...86_400))
            }),
        CommandDefinition(
            "quit", "", "disconnect every session, stop the embedded server and leave",
            details: ["Ctrl-D on an empty line does the same."],
            aliases: ["exit"],
            parse: { input throws(CommandSyntaxError) in
                try input.arguments().expectCount(0...0)
                return .quit
            }),
    ]
}
