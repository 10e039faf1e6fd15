extension CommandCatalog {
    /// The faults a scenario injects (the embedded server's outages, an account's link) and
    /// what it requires of the profile to run at all.
    static let faultCommands: [CommandDefinition] = [server, link, database, require]

    static let server = CommandDefinition(
        "server", "stop|start|kill|move|block-app|unblock-app", "stop, start, crash or move the embedded server, or block its app",
        details: [
            "stop: every client gets DISCONNECT (server shutting down, 0x8B) and is closed, the listeners close; the store stays on disk. start: the server starts again on the same ports, so the sessions' attempts find it (they reconnect on their backoff schedule). kill: as a crash, every connection is reset without a DISCONNECT, and no will is sent; what the store committed stays. move: its MQTT listener (not TLS, not WebSocket) moves to a new port, the old one closes, and every client is sent there with DISCONNECT 0x9C (use another server) naming the new address as Server Reference, once what it sent is stored and acknowledged; the command returns when they have left. Sessions made afterwards get the old address first in their server list, as a list naming a server that has gone. block-app: the active profile's app is blocked, as 'imserver app block' does: its logins are refused (unconnected 11, 31008) until unblock-app.",
            "Only for the embedded server: it fails, saying so, when the active profile names servers of its own, and when the server is not in the state the action needs (not started yet, already stopped, already running).",
        ],
        examples: ["server stop", "server start", "server kill", "server move", "server block-app"],
        arguments: [.choice(ServerAction.allCases.map(\.rawValue))],
        parse: { input throws(CommandSyntaxError) in
            .server(try CommandParser.oneWord(input, what: "an action"))
        })

    static let link = CommandDefinition(
        "link", "ACCOUNT delay MS|loss PERCENT|blackhole|clear", "put a fault on one account's link to its server",
        details: [
            "The first 'link' of an account puts a fault proxy (as imchaos(1)'s) in front of it: its connections made from then on go through the proxy, so give it before the account's connect ('link ACCOUNT clear' does nothing else). An account already connected straight to its server is refused.",
            "delay MS: each chunk crosses MS milliseconds late, each way, in order. loss PERCENT: that share of chunks is lost once and crosses a retransmission timeout (200 ms) late, those after it waiting behind it, as TCP shows loss; which ones is drawn from the run's seed (imsh --seed N, shown in the command's result), so a run can be repeated. blackhole: nothing crosses and nothing closes, as when every packet is dropped; the session finds out by its heartbeat (1.5 x keep-alive). clear: everything crosses as it comes, what was held first.",
        ],
        examples: ["link alice-phone clear", "link alice-phone delay 300", "link alice-phone loss 20", "link alice-phone blackhole"],
        arguments: [.account, .choice(["delay", "loss", "blackhole", "clear"])],
        parse: { input throws(CommandSyntaxError) in
            try CommandParser.parseLink(input)
        })

    static let database = CommandDefinition(
        "database", "ACCOUNT damage", "end the account's session and damage its local database file",
        details: [
            "damage: the account's session ends as an app's process ends (its database closes; no DISCONNECT is awaited), then the first 4 KiB of its database file are overwritten with bytes that are not SQLite's, as a failing disk or a copy cut short leaves a file. Its next connect finds the file damaged, moves it aside (kept, renamed .corrupt-TIME) and makes a new one before connecting: 'expect ACCOUNT database recreated' checks it.",
            "The account must have had a session that opened its database (connect it first).",
        ],
        examples: ["database alice-phone damage"],
        arguments: [.account, .choice(["damage"])],
        parse: { input throws(CommandSyntaxError) in
            let arguments = try input.arguments()
            try arguments.expectCount(2...2)
            guard arguments.positionals[1] == "damage" else {
                throw CommandSyntaxError("database: '\(arguments.positionals[1])' is not an action; give damage")
            }
            return .damageDatabase(try CommandParser.reference(arguments.positionals[0], command: input.command))
        })

    static let require = CommandDefinition(
        "require", "api|embedded", "skip the rest of the script unless the profile allows it",
        details: [
            "api: the server API can be called (the embedded server, or a profile with api and appSecret), as block, expire-token and deactivate need. embedded: the active profile is on the embedded server, as 'server' needs. When it is not met the script ends as 'skip' ends it, with the reason: 'imsh test' counts the scenario as skipped."
        ],
        examples: ["require api", "require embedded"],
        arguments: [.choice(Requirement.allCases.map(\.rawValue))],
        parse: { input throws(CommandSyntaxError) in
            .require(try CommandParser.oneWord(input, what: "a requirement"))
        })
}
