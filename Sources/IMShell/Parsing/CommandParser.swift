import IMEngine
import IMProfiles
import IMTimeline

/// Turns the words of one command into a `ShellCommand`, or a usage error saying what to fix.
public enum CommandParser {
    /// The longest block the server API accepts, in minutes (30 days).
    public static let maximumBlockMinutes = 43_200
    /// How many entries `history` and `log` show unless `-n` says otherwise.
    public static let defaultListLimit = 20
    /// How long `wait` waits unless `--timeout` says otherwise, in seconds.
    public static let defaultWaitTimeout = 30.0

    public static func parse(_ words: [String]) throws(CommandSyntaxError) -> ShellCommand {
        guard let first = words.first else { throw CommandSyntaxError("empty command; type 'help' for the list") }
        guard let help = CommandCatalog.named(first) else {
            let suggestions = CommandCatalog.suggestions(for: first).prefix(3)
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
            throw CommandSyntaxError("unknown command '\(first)'\(hint); type 'help' for the list")
        }
        let rest = words.dropFirst()
        let name = help.name
        switch name {
        case "help":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(0...1)
            if let topic = arguments.positionals.first, CommandCatalog.named(topic) == nil {
                throw CommandSyntaxError("help: no command '\(topic)'; type 'help' for the list")
            }
            return .help(topic: arguments.positionals.first.map { CommandCatalog.named($0)?.name ?? $0 })
        case "profiles", "quit":
            try CommandArguments(rest, command: name).expectCount(0...0)
            return name == "quit" ? .quit : .profiles
        case "use", "accounts":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(name == "use" ? 1...1 : 0...1)
            if let profile = arguments.positionals.first, !ProfileName.isValid(profile) {
                throw CommandSyntaxError("\(name): '\(profile)' is not a profile name; \(ProfileName.rule)")
            }
            return name == "use" ? .use(profile: arguments.positionals[0]) : .accounts(profile: arguments.positionals.first)
        case "connect":
            let arguments = try CommandArguments(rest, command: name, valueOptions: ["--timeout"], flagOptions: ["--kick-enable"])
            return .connect(
                try AccountSelection(parsing: arguments.positionals, command: name),
                timeout: try arguments.seconds("--timeout", in: 0...86_400),
                kickEnable: arguments.flags.contains("--kick-enable"))
        case "disconnect":
            let arguments = try CommandArguments(rest, command: name, flagOptions: ["--disable-push"])
            return .disconnect(
                try AccountSelection(parsing: arguments.positionals, command: name),
                disablePush: arguments.flags.contains("--disable-push"))
        case "kick", "unblock", "expire-token":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(1...1)
            let account = try reference(arguments.positionals[0], command: name)
            return name == "kick" ? .kick(account) : name == "unblock" ? .unblock(account) : .expireToken(account)
        case "block":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(2...2)
            let minutes = try CommandArguments.integer(arguments.positionals[1], what: "block MINUTES", in: 1...maximumBlockMinutes)
            return .block(try reference(arguments.positionals[0], command: name), minutes: minutes)
        case "status":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(0...1)
            return .status(try arguments.positionals.first.map { (word) throws(CommandSyntaxError) in try reference(word, command: name) })
        case "send":
            return try parseSend(rest)
        case "history", "log":
            let arguments = try CommandArguments(rest, command: name, valueOptions: ["-n"])
            try arguments.expectCount(name == "history" ? 1...2 : 0...1)
            let limit = try arguments.integer("-n", in: 1...10_000) ?? defaultListLimit
            let account = try arguments.positionals.first.map { (word) throws(CommandSyntaxError) in try reference(word, command: name) }
            if name == "log" { return .log(account, limit: limit) }
            let peer = arguments.positionals.count > 1 ? arguments.positionals[1] : nil
            return .history(account!, peer: peer, limit: limit)
        case "timeline":
            return try parseTimeline(rest)
        case "net":
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(2...Int.max)
            guard let event = networkEvent(arguments.positionals.last!) else {
                throw CommandSyntaxError("net: '\(arguments.positionals.last!)' is not a network change; give down, up or change")
            }
            return .net(try AccountSelection(parsing: Array(arguments.positionals.dropLast()), command: name), event)
        case "background", "foreground":
            let arguments = try CommandArguments(rest, command: name)
            let selection = try AccountSelection(parsing: arguments.positionals, command: name)
            return name == "background" ? .background(selection) : .foreground(selection)
        case "wait":
            let arguments = try CommandArguments(rest, command: name, valueOptions: ["--timeout"])
            try arguments.expectCount(2...Int.max)
            let word = arguments.positionals.last!
            guard let state = status(named: word) else {
                let names = ConnectionStatus.allKnown.map(\.name).joined(separator: ", ")
                throw CommandSyntaxError("wait: '\(word)' is not a status; give one of \(names)")
            }
            return .wait(
                try AccountSelection(parsing: Array(arguments.positionals.dropLast()), command: name), state,
                timeout: try arguments.seconds("--timeout", in: 0...86_400) ?? defaultWaitTimeout)
        default:
            let arguments = try CommandArguments(rest, command: name)
            try arguments.expectCount(1...1)
            return .sleep(seconds: try CommandArguments.number(arguments.positionals[0], what: "sleep", in: 0...86_400))
        }
    }

    /// `send ACCOUNT TO-USER TEXT...`: the words after TO-USER are the text, as typed.
    private static func parseSend(_ words: ArraySlice<String>) throws(CommandSyntaxError) -> ShellCommand {
        guard words.count >= 3 else {
            throw CommandSyntaxError("send: missing arguments; usage: send ACCOUNT TO-USER TEXT (quote TEXT to keep its spaces)")
        }
        let account = try reference(words[words.startIndex], command: "send")
        let peer = words[words.startIndex + 1]
        let text = words.dropFirst(2).joined(separator: " ")
        guard !text.isEmpty else { throw CommandSyntaxError("send: the text is empty") }
        return .send(account, to: peer, text: text)
    }

    /// `timeline [ACCOUNT...|all] [--since DURATION] [--until TIME] [--svg FILE] [--html FILE]`.
    private static func parseTimeline(_ words: ArraySlice<String>) throws(CommandSyntaxError) -> ShellCommand {
        let arguments = try CommandArguments(words, command: "timeline", valueOptions: ["--since", "--until", "--svg", "--html"])
        var request = TimelineRequest(svgFile: arguments.values["--svg"], htmlFile: arguments.values["--html"])
        if let text = arguments.values["--since"] {
            guard let since = TimelineInstant.milliseconds(parsingDuration: text) else {
                throw CommandSyntaxError("timeline: --since wants a duration such as 90s, 10m, 2h or 1d, not '\(text)'")
            }
            request.since = since
        }
        if let text = arguments.values["--until"] {
            guard let until = TimelineInstant(parsing: text) else {
                throw CommandSyntaxError("timeline: --until wants \(TimelineInstant.syntax), not '\(text)'")
            }
            request.until = until
        }
        for name in ["--svg", "--html"] where arguments.values[name]?.isEmpty == true {
            throw CommandSyntaxError("timeline: \(name) wants a file name")
        }
        let selection = arguments.positionals.isEmpty ? nil : try AccountSelection(parsing: arguments.positionals, command: "timeline")
        return .timeline(selection, request)
    }

    private static func reference(_ word: String, command: String) throws(CommandSyntaxError) -> AccountReference {
        let reference: AccountReference
        do {
            reference = try AccountReference(parsing: word)
        } catch {
            throw CommandSyntaxError("\(command): \(error)")
        }
        guard reference.account != AccountSelection.allKeyword else {
            throw CommandSyntaxError("\(command) takes one account, not all")
        }
        return reference
    }

    /// `down`, `up`, `change` (or `changed`).
    static func networkEvent(_ word: String) -> NetworkEvent? {
        switch word.lowercased() {
        case "down": return .down
        case "up": return .up
        case "change", "changed": return .changed
        default: return nil
        }
    }

    /// A status by name (any case) or by number.
    static func status(named word: String) -> ConnectionStatus? {
        if let number = Int(word) { return ConnectionStatus.allKnown.first { $0.rawValue == number } }
        return ConnectionStatus(name: word)
    }
}
