/// Every shell command with its help, in the order `help` lists them.
public enum CommandCatalog {
    public static let all: [CommandHelp] = [
        CommandHelp(
            "help", "[COMMAND]", "list the commands, or explain one",
            examples: ["help connect"]),
        CommandHelp(
            "profiles", "", "show the profiles, where they come from, and their problems",
            details: ["Lists each profile loaded (the active one marked *), the profiles that did not load, and every error and warning found in the files, as FILE:LINE:COLUMN: error: FIELD: REASON."]),
        CommandHelp(
            "use", "PROFILE", "make PROFILE the active profile",
            details: ["Account names without a profile, 'all', and the prompt refer to the active profile. Sessions of other profiles keep running."],
            examples: ["use prod"]),
        CommandHelp(
            "accounts", "[PROFILE]", "list the accounts of a profile with their settings and status",
            details: ["Shows each account's user, device, platform, token source (tokens redacted), timeout, heartbeat, kick policy and current status."]),
        CommandHelp(
            "connect", "ACCOUNT...|all [--timeout S] [--kick-enable]", "log accounts in, in parallel",
            details: [
                "Connects each account and reports how each call ended: connected with its user id, or the status and error code that stopped it. 'all' is every account of the active profile; PROFILE/all every account of PROFILE.",
                "--timeout S bounds the first connection (default: the account's timeout; 0 retries until connected). --kick-enable asks that automatic reconnections give way to another online device of the same class (31023) instead of kicking it.",
                "Accounts without a token get one from the server API. An account already connected is reported as such.",
            ],
            examples: ["connect all", "connect alice-phone bob-phone --timeout 5", "connect prod/carol-web"],
            options: ["--timeout", "--kick-enable"]),
        CommandHelp(
            "disconnect", "ACCOUNT...|all [--disable-push]", "log accounts out on purpose (status signOut)",
            details: ["--disable-push asks the server to drop the device's session, so it keeps no messages for it. 'all' is every session of the active profile."],
            examples: ["disconnect all", "disconnect alice-phone --disable-push"],
            options: ["--disable-push"]),
        CommandHelp(
            "kick", "ACCOUNT", "have the server disconnect every device of the account's user",
            details: ["Calls the server API (/user/kick.json). Each device then reports kickedOfflineByOtherClient (6) with error 31010 and does not reconnect. Needs the profile's appSecret."],
            examples: ["kick bob-phone"]),
        CommandHelp(
            "block", "ACCOUNT MINUTES", "ban the account's user for MINUTES (1 to 43200)",
            details: ["Calls the server API (/user/block.json): the user's devices are disconnected at once with disconnException (16), error 31009, and logins are refused until the block ends or 'unblock'."],
            examples: ["block bob-phone 10"]),
        CommandHelp(
            "unblock", "ACCOUNT", "lift a ban on the account's user",
            examples: ["unblock bob-phone"]),
        CommandHelp(
            "expire-token", "ACCOUNT", "invalidate the tokens the account's user holds now",
            details: ["Calls the server API (/user/token/expire.json) with the current time. Live connections stay; the next login or reconnection with an old token is refused: tokenIncorrect (15), error 31020. 'connect' gets a fresh token for accounts without one in the profile."],
            examples: ["expire-token alice-phone"]),
        CommandHelp(
            "status", "[ACCOUNT]", "show the status of the accounts, or one account in detail",
            details: ["Without ACCOUNT: every account of the active profile and every session of other profiles, with status name and code and the last error. With ACCOUNT: its user, device, server, database and recent status changes."]),
        CommandHelp(
            "send", "ACCOUNT TO-USER TEXT", "send a text message from ACCOUNT to user TO-USER",
            details: ["The message is stored, then published; the result says whether the server acknowledged it within 5 seconds (sent) or it waits for a reconnection (pending). Quote TEXT to keep its spaces exactly; unquoted words are joined with one space."],
            examples: ["send alice-phone bob \"hello there\""]),
        CommandHelp(
            "history", "ACCOUNT [PEER] [-n N]", "show the messages in the account's local database",
            details: ["Oldest first, the latest N (default 20), with PEER's conversation only when given. The database opens with the account's first connect."],
            examples: ["history bob-phone alice -n 5"],
            options: ["-n"]),
        CommandHelp(
            "net", "ACCOUNT...|all down|up|change", "simulate a network change on sessions",
            details: ["down: the network goes away (networkUnavailable, 1; attempts pause). up: it comes back (the session reconnects). change: another network replaces the current one (the session reconnects at once)."],
            examples: ["net alice-phone down", "net all up"]),
        CommandHelp(
            "background", "ACCOUNT...|all", "send sessions to the background",
            details: ["After the background grace (120 s) a session disconnects with status suspend (13); 'foreground' brings it back."]),
        CommandHelp(
            "foreground", "ACCOUNT...|all", "bring sessions back to the foreground",
            details: ["A suspended session reconnects at once, and the backoff schedule starts over."]),
        CommandHelp(
            "log", "[ACCOUNT] [-n N]", "show the connection log of an account, or this run's events",
            details: ["With ACCOUNT: the latest N (default 20) status changes from its local database, kept across runs. Without: the latest N events (status changes, messages) of every session in this run."],
            options: ["-n"]),
        CommandHelp(
            "timeline", "[ACCOUNT...|all] [--since DURATION] [--until TIME] [--svg FILE] [--html FILE]",
            "draw the accounts' connection logs as lanes of status over time",
            details: [
                "One lane per account (default: every account of the active profile), read from the databases on disk, so it works without a session and across runs. Spans: connected, connecting (each attempt marked), network unavailable, suspended, kicked, ended; kicks (K) and terminal errors (!) are listed with their codes, a kick with the device of the same user that logged in then.",
                "--since DURATION starts that long before the end (90s, 10m, 2h, 1d; default: the first entry). --until TIME ends at now (default), HH:MM[:SS] today or YYYY-MM-DDTHH:MM[:SS], local time.",
                "--svg FILE and --html FILE also write the timeline as a self-contained SVG image or HTML page (hover a span for its status, code, detail, start and end); files are made mode 0600, and a symbolic link in their place is refused. The text fits the terminal, honours NO_COLOR, and uses plain ASCII when the locale is not UTF-8.",
            ],
            examples: ["timeline", "timeline alice-phone alice-tablet --since 10m", "timeline all --html /tmp/run.html"],
            options: ["--since", "--until", "--svg", "--html"]),
        CommandHelp(
            "wait", "ACCOUNT...|all STATE [--timeout S]", "wait until the accounts reach STATE",
            details: ["STATE is a status name (connected, kickedOfflineByOtherClient, ...) or its number. The command succeeds when every account has reached it since the wait began or is in it, and fails after S seconds (default 30) otherwise. 'all' is every session of the active profile."],
            examples: ["wait all connected", "wait alice-phone kickedOfflineByOtherClient --timeout 5"],
            options: ["--timeout"]),
        CommandHelp(
            "sleep", "SECONDS", "pause for SECONDS (fractions allowed), letting events arrive",
            examples: ["sleep 0.5"]),
        CommandHelp(
            "quit", "", "disconnect every session, stop the embedded server and leave",
            details: ["Ctrl-D on an empty line does the same."],
            aliases: ["exit"]),
    ]

    /// The command called `name` (or one of its aliases).
    public static func named(_ name: String) -> CommandHelp? {
        all.first { $0.name == name || $0.aliases.contains(name) }
    }

    /// Every name a command can be typed as.
    public static var names: [String] { all.flatMap { [$0.name] + $0.aliases } }

    /// The closest command names to a mistyped `word`, for "did you mean".
    static func suggestions(for word: String) -> [String] {
        let lowered = word.lowercased()
        let scored = names.map { ($0, editDistance(lowered, $0)) }
        let best = scored.filter { $0.1 <= max(1, min(2, word.count / 3)) || $0.0.hasPrefix(lowered) }
        return best.sorted { $0.1 < $1.1 }.map(\.0)
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
