import IMEngine
import IMProfiles

extension CommandCatalog {
    /// The commands about the shell itself: help, profiles, the active profile.
    static let shellCommands: [CommandDefinition] = [help, profiles, use, accounts]

    static let help = CommandDefinition(
        "help", "[COMMAND]", "list the commands, or explain one",
        examples: ["help connect"],
        arguments: [.command],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(0...1)
            guard let topic = arguments.positionals.first else { return .help(topic: nil) }
            guard let found = CommandCatalog.named(topic) else {
                throw CommandSyntaxError("help: no command '\(topic)'; type 'help' for the list")
            }
            return .help(topic: found.name)
        })

    static let profiles = CommandDefinition(
        "profiles", "", "show the profiles, where they come from, and their problems",
        details: ["Lists each profile loaded (the active one marked *), the profiles that did not load, and every error and warning found in the files, as FILE:LINE:COLUMN: error: FIELD: REASON."],
        parse: { input throws(CommandSyntaxError) in
            try input.arguments().expectCount(0...0)
            return .profiles
        })

    static let use = CommandDefinition(
        "use", "PROFILE", "make PROFILE the active profile",
        details: ["Account names without a profile, 'all', and the prompt refer to the active profile. Sessions of other profiles keep running."],
        examples: ["use prod"],
        arguments: [.profile],
        parse: { input throws(CommandSyntaxError) in
            .use(profile: try CommandParser.profileName(input, count: 1...1)!)
        })

    static let accounts = CommandDefinition(
        "accounts", "[PROFILE]", "list the accounts of a profile with their settings and status",
        details: ["Shows each account's user, device, platform, token source (tokens redacted), timeout, heartbeat, kick policy and current status."],
        arguments: [.profile],
        parse: { input throws(CommandSyntaxError) in
            .accounts(profile: try CommandParser.profileName(input, count: 0...1))
        })
}
