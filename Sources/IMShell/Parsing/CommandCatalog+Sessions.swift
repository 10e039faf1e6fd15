import IMEngine
import IMProfiles

extension CommandCatalog {
    /// The commands that drive sessions: connecting, the network, background, waiting.
    static let sessionCommands: [CommandDefinition] = [connect, disconnect, net, background, foreground, wait, expect]

    static let connect = CommandDefinition(
        "connect", "ACCOUNT...|all [--timeout S] [--kick-enable] [--no-wait]", "log accounts in, in parallel",
        details: [
            "Connects each account and reports how each call ended: connected with its user id, or the status and error code that stopped it. 'all' is every account of the active profile; PROFILE/all every account of PROFILE.",
            "--timeout S bounds the first connection (default: the account's timeout; 0 or less retries until connected, as the SDK's timeout does). --kick-enable asks that automatic reconnections give way to another online device of the same class (31023) instead of kicking it.",
            "Accounts without a token get one from the server API. An account already connected is reported as such.",
            "--no-wait answers as soon as every call is started (status connecting), without waiting for the server: status and events tell how each ends, and 'wait ACCOUNT...|all connected' waits for them. Thousands of accounts get the prompt back at once.",
        ],
        examples: ["connect all", "connect alice-phone bob-phone --timeout 5", "connect prod/carol-web", "connect all --no-wait"],
        valueOptions: ["--timeout"], flagOptions: ["--kick-enable", "--no-wait"], arguments: [.selection],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            return .connect(
                try AccountSelection(parsing: arguments.positionals, command: input.command),
                timeout: try arguments.seconds("--timeout", in: -86_400...86_400),
                kickEnable: arguments.flags.contains("--kick-enable"),
                wait: !arguments.flags.contains("--no-wait"))
        })

    static let disconnect = CommandDefinition(
        "disconnect", "ACCOUNT...|all [--disable-push]", "log accounts out on purpose (status signOut)",
        details: [
            "--disable-push asks the server to send the device no push notifications until it connects again, as the SDK's "
                + "disconnect(disablePush:) does; the server still keeps its messages and delivers them at the next connect. "
                + "'all' is every session of the active profile.",
        ],
        examples: ["disconnect all", "disconnect alice-phone --disable-push"],
        flagOptions: ["--disable-push"], arguments: [.selection],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            return .disconnect(
                try AccountSelection(parsing: arguments.positionals, command: input.command),
                disablePush: arguments.flags.contains("--disable-push"))
        })

    static let net = CommandDefinition(
        "net", "ACCOUNT...|all down|up|change", "simulate a network change on sessions",
        details: ["down: the network goes away (networkUnavailable, 1; attempts pause). up: it comes back (the session reconnects). change: another network replaces the current one (the session reconnects at once)."],
        examples: ["net alice-phone down", "net all up"],
        arguments: [.selection, .choice(["down", "up", "change"])],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(2...Int.max)
            guard let event = CommandParser.networkEvent(arguments.positionals.last!) else {
                throw CommandSyntaxError("net: '\(arguments.positionals.last!)' is not a network change; give down, up or change")
            }
            return .net(try AccountSelection(parsing: Array(arguments.positionals.dropLast()), command: input.command), event)
        })

    static let background = CommandDefinition(
        "background", "ACCOUNT...|all [--grace S]", "send sessions to the background",
        details: ["After the background grace (the account's backgroundGrace, 120 s unless the profile says; --grace S this time) a session disconnects with status suspend (13); 'foreground' brings it back."],
        examples: ["background all", "background alice-phone --grace 2"],
        valueOptions: ["--grace"],
        arguments: [.selection],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            return .background(
                try AccountSelection(parsing: arguments.positionals, command: input.command),
                grace: try arguments.seconds("--grace", in: 0...86_400))
        })

    static let foreground = CommandDefinition(
        "foreground", "ACCOUNT...|all", "bring sessions back to the foreground",
        details: ["A suspended session reconnects at once, and the backoff schedule starts over."],
        arguments: [.selection],
        parse: { input throws(CommandSyntaxError) in
            .foreground(try AccountSelection(parsing: try input.arguments().positionals, command: input.command))
        })

    static let wait = CommandDefinition(
        "wait", "ACCOUNT...|all STATE [--timeout S]", "wait until the accounts reach STATE",
        details: ["STATE is a status name (connected, kickedOfflineByOtherClient, ...) or its number. The command succeeds when every account has reached it since the wait began or is in it, and fails after S seconds (default 30) otherwise, or at once when an account has ended in another state for good (kicked, banned, timed out, ...): it will not get there. 'all' is every session of the active profile."],
        examples: ["wait all connected", "wait alice-phone kickedOfflineByOtherClient --timeout 5"],
        valueOptions: ["--timeout"], arguments: [.selection, .choice(ConnectionStatus.allKnown.map(\.name))],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(2...Int.max)
            let word = arguments.positionals.last!
            guard let state = CommandParser.status(named: word) else {
                let names = ConnectionStatus.allKnown.map(\.name).joined(separator: ", ")
                throw CommandSyntaxError("wait: '\(word)' is not a status; give one of \(names)")
            }
            return .wait(
                try AccountSelection(parsing: Array(arguments.positionals.dropLast()), command: input.command), state,
                timeout: try arguments.seconds("--timeout", in: 0...86_400) ?? CommandParser.defaultWaitTimeout)
        })

    static let expect = CommandDefinition(
        "expect",
        "ACCOUNT [no] message [from USER] [TEXT|--match REGEX] [--in-order] | [stays] STATE [--code CODE] [--by ACCOUNT] | retries W,W... [--tolerance S] | database recreated [--within S] [--for S]",
        "assert what an account receives or how its status goes",
        details: [
            "message: a message arrives within S seconds (--within, default 10); one that arrived before the expect counts. Each message received satisfies at most one expect, the earliest first, so two identical messages need two. 'from USER' asks for that sender, TEXT for exactly that text (quote it, or its words are joined with one space), --match REGEX for a text in which the expression is found. --in-order counts only a message that came after every message claimed before by this account's expects: a run of them checks the order messages came in.",
            "no message: no message (of that sender or text) is waiting unclaimed or arrives for S seconds (--for, default 3).",
            "STATE: as wait, the account is in STATE or reaches it within S seconds (--within, default 10); --code CODE asks for that error code with it, --by ACCOUNT that the kick came from that device: the server does not name the kicker, so it is the other device of the same user whose login (connected) in this run is closest to the kick. stays STATE: the account is in STATE and stays there for S seconds (--for, required).",
            "retries W,W...: the retries of the account's latest backoff schedule (from its latest retry numbered 2, the first of a fresh schedule) plan these waits in order, and each next retry comes that long after the one before, within --tolerance S (default 0.1); so one more retry than waits is awaited, within S seconds (--within, default the waits' sum and 10). For attempts that fail at once (a stopped server): the time an attempt takes counts in the wait.",
            "database recreated: the account's local database was found damaged when its session opened it, moved aside (kept, renamed .corrupt-TIME) and made anew, within S seconds (--within, default 10); a recreation before the expect counts, each one satisfying at most one such expect.",
            "A failed expect fails the command, naming what was expected, what came instead (the account's recent statuses and messages) and, in a script, FILE:LINE.",
        ],
        examples: [
            "expect bob-phone message from alice hi --within 2", "expect bob-phone message --match '^order [0-9]+$'",
            "expect alice-tablet kickedOfflineByOtherClient --code 31010 --by alice-phone", "expect bob-phone no message --for 3",
            "expect alice-phone stays connected --for 5", "expect alice-phone retries 0.05,0.25,0.5,1",
            "expect bob-phone message from alice two --in-order", "expect alice-phone database recreated",
        ],
        valueOptions: ["--match", "--code", "--by", "--within", "--for", "--tolerance"], flagOptions: ["--in-order"],
        arguments: [.account, .choice(["message", "no", "stays", "retries", "database"] + ConnectionStatus.allKnown.map(\.name))],
        parse: { input throws(CommandSyntaxError) in
            try CommandParser.parseExpect(input)
        })
}
