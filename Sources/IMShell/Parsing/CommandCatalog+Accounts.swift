import IMEngine
import IMProfiles

extension CommandCatalog {
    /// The commands that read or use one account: status, messages, logs.
    static let accountCommands: [CommandDefinition] = [status, send, history, log, timeline]

    static let status = CommandDefinition(
        "status", "[ACCOUNT]", "show the status of the accounts, or one account in detail",
        details: ["Without ACCOUNT: every account of the active profile and every session of other profiles, with status name and code and the last error. With ACCOUNT: its user, device, server, database and recent status changes."],
        arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(0...1)
            return .status(try arguments.positionals.first.map { (word) throws(CommandSyntaxError) in
                try CommandParser.reference(word, command: input.command)
            })
        })

    static let send = CommandDefinition(
        "send", "ACCOUNT TO-USER TEXT", "send a text message from ACCOUNT to user TO-USER",
        details: ["The message is stored, then published; the result says whether the server acknowledged it within 5 seconds (sent) or it waits for a reconnection (pending). Quote TEXT to keep its spaces exactly; unquoted words are joined with one space."],
        examples: ["send alice-phone bob \"hello there\""],
        arguments: [.account, .user, .text],
        parse: { input throws(CommandSyntaxError) in
            try CommandParser.parseSend(input)
        })

    static let history = CommandDefinition(
        "history", "ACCOUNT [PEER] [-n N]", "show the messages in the account's local database",
        details: ["Oldest first, the latest N (default 20), with PEER's conversation only when given. Without a session in this run, it is read from the account's database on disk (kept across runs), which is then closed again."],
        examples: ["history bob-phone alice -n 5"],
        valueOptions: ["-n"], arguments: [.account, .user],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(1...2)
            let peer = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
            return .history(
                try CommandParser.reference(arguments.positionals[0], command: input.command), peer: peer,
                limit: try arguments.integer("-n", in: 1...10_000) ?? CommandParser.defaultListLimit)
        })

    static let log = CommandDefinition(
        "log", "[ACCOUNT] [-n N]", "show the connection log of an account, or this run's events",
        details: ["With ACCOUNT: the latest N (default 20) status changes from its local database, kept across runs (read from disk when the account has no session in this run). Without: the latest N events (status changes, messages) of every session in this run."],
        valueOptions: ["-n"], arguments: [.account],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(0...1)
            return .log(
                try arguments.positionals.first.map { (word) throws(CommandSyntaxError) in try CommandParser.reference(word, command: input.command) },
                limit: try arguments.integer("-n", in: 1...10_000) ?? CommandParser.defaultListLimit)
        })

    static let timeline = CommandDefinition(
        "timeline", "[ACCOUNT...|all] [--since DURATION] [--until TIME] [--svg FILE] [--html FILE]",
        "draw the accounts' connection logs as lanes of status over time",
        details: [
            "One lane per account (default: every account of the active profile), read from the databases on disk, so it works without a session and across runs. Spans: connected, connecting (each attempt marked), network unavailable, suspended, kicked, ended; kicks (K) and terminal errors (!) are listed with their codes, a kick with the device of the same user that logged in then.",
            "--since DURATION starts that long before the end (90s, 10m, 2h, 1d; default: the first entry). --until TIME ends at now (default), HH:MM[:SS] today or YYYY-MM-DDTHH:MM[:SS], local time.",
            "--svg FILE and --html FILE also write the timeline as a self-contained SVG image or HTML page (hover a span for its status, code, detail, start and end); files are made mode 0600, and a symbolic link in their place is refused. The text fits the terminal, honours NO_COLOR, and uses plain ASCII when the locale is not UTF-8.",
        ],
        examples: ["timeline", "timeline alice-phone alice-tablet --since 10m", "timeline all --html /tmp/run.html"],
        valueOptions: ["--since", "--until", "--svg", "--html"], arguments: [.selection],
        parse: { input throws(CommandSyntaxError) in
            try CommandParser.parseTimeline(input)
        })
}
