import IMEngine
import IMProfiles

extension CommandCatalog {
    /// The commands that call the server API on an account's user.
    static let adminCommands: [CommandDefinition] = [kick, block, unblock, expireToken, deactivate, reactivate]

    static let kick = CommandDefinition(
        "kick", "ACCOUNT", "have the server disconnect every device of the account's user",
        details: ["Calls the server API (/user/kick.json). Each device then reports kickedOfflineByOtherClient (6) with error 31010 and does not reconnect. Needs the profile's appSecret."],
        examples: ["kick bob-phone"],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            .kick(try CommandParser.oneAccount(input))
        })

    static let block = CommandDefinition(
        "block", "ACCOUNT MINUTES", "ban the account's user for MINUTES (1 to 43200)",
        details: ["Calls the server API (/user/block.json): the user's devices are disconnected at once with disconnException (16), error 31009, and logins are refused until the block ends or 'unblock'."],
        examples: ["block bob-phone 10"],
        arguments: [.account, .text],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(2...2)
            let minutes = try CommandArguments.integer(
                arguments.positionals[1], what: "block MINUTES", in: 1...CommandParser.maximumBlockMinutes)
            return .block(try CommandParser.reference(arguments.positionals[0], command: input.command), minutes: minutes)
        })

    static let unblock = CommandDefinition(
        "unblock", "ACCOUNT", "lift a ban on the account's user",
        examples: ["unblock bob-phone"],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            .unblock(try CommandParser.oneAccount(input))
        })

    static let expireToken = CommandDefinition(
        "expire-token", "ACCOUNT", "invalidate the tokens the account's user holds now",
        details: ["Calls the server API (/user/token/expire.json) with the current time. Live connections stay; the next login or reconnection with an old token is refused: tokenIncorrect (15), error 31020. 'connect' gets a fresh token for accounts without one in the profile."],
        examples: ["expire-token alice-phone"],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            .expireToken(try CommandParser.oneAccount(input))
        })

    static let deactivate = CommandDefinition(
        "deactivate", "ACCOUNT", "deactivate the account's user; its devices end (userAbandon)",
        details: ["Calls the server API (/user/deactivate.json): the user's devices are disconnected at once with userAbandon (19) and do not reconnect; logins are refused until 'reactivate'."],
        examples: ["deactivate bob-phone"],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            .deactivate(try CommandParser.oneAccount(input))
        })

    static let reactivate = CommandDefinition(
        "reactivate", "ACCOUNT", "let a deactivated user log in again",
        details: ["Calls the server API (/user/reactivate.json). The devices stay disconnected until they connect again."],
        examples: ["reactivate bob-phone"],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            .reactivate(try CommandParser.oneAccount(input))
        })
}
