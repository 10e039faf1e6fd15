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
        return try help.parse(words.dropFirst())
    }

    /// The profile name among `input`'s positionals (`count` of them), checked.
    static func profileName(_ input: CommandInput, count: ClosedRange<Int>) throws(CommandSyntaxError) -> String? {
        let arguments = try input.arguments()
        try arguments.expectCount(count)
        guard let profile = arguments.positionals.first else { return nil }
        guard ProfileName.isValid(profile) else {
            throw CommandSyntaxError("\(input.command): '\(profile)' is not a profile name; \(ProfileName.rule)")
        }
        return profile
    }

    /// The one account `input` names.
    static func oneAccount(_ input: CommandInput) throws(CommandSyntaxError) -> AccountReference {
        let arguments = try input.arguments()
        try arguments.expectCount(1...1)
        return try reference(arguments.positionals[0], command: input.command)
    }

    /// `send ACCOUNT TO-USER TEXT...`: the words after TO-USER are the text, as typed.
    static func parseSend(_ input: CommandInput) throws(CommandSyntaxError) -> ShellCommand {
        let words = input.words
        guard words.count >= 3 else {
            throw CommandSyntaxError("send: missing arguments; usage: send ACCOUNT TO-USER TEXT (quote TEXT to keep its spaces)")
        }
        let account = try reference(words[words.startIndex], command: input.command)
        let peer = words[words.startIndex + 1]
        let text = words.dropFirst(2).joined(separator: " ")
        guard !text.isEmpty else { throw CommandSyntaxError("send: the text is empty") }
        return .send(account, to: peer, text: text)
    }

    /// `timeline [ACCOUNT...|all] [--since DURATION] [--until TIME] [--svg FILE] [--html FILE]`.
    static func parseTimeline(_ input: CommandInput) throws(CommandSyntaxError) -> ShellCommand {
        let arguments = try input.arguments()
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
        let selection = arguments.positionals.isEmpty ? nil : try AccountSelection(parsing: arguments.positionals, command: input.command)
        return .timeline(selection, request)
    }

    static func reference(_ word: String, command: String) throws(CommandSyntaxError) -> AccountReference {
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
