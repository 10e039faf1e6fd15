import IMEngine
import IMProfiles

/// TAB completion: commands, profiles, accounts, states and options, by position.
///
/// Runs on the line editor's thread: it reads only the profiles (fixed after start) and the
/// active profile's name.
public struct ShellCompleter: Sendable {
    let context: ShellContext

    public init(context: ShellContext) {
        self.context = context
    }

    /// Candidates that replace the word before the cursor (the text after the last space).
    public func candidates(lineBeforeCursor line: String) -> [String] {
        // The editor replaces the text after the last space; a ';' in it stays in front.
        let word = line.split(omittingEmptySubsequences: false, whereSeparator: { $0 == " " || $0 == "\t" }).last ?? ""
        let lead = word.lastIndex(of: ";").map { String(word[...$0]) } ?? ""
        return candidatesInCommand(line).map { lead + $0 }
    }

    private func candidatesInCommand(_ line: String) -> [String] {
        // Only the command being typed counts: the text after the last ';'.
        let command = line.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? line
        var words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsWithSpace = command.last == " " || command.last == "\t" || command.isEmpty
        let current = endsWithSpace ? "" : words.removeLast()
        guard let first = words.first else { return matching(CommandCatalog.all.map(\.name), current) }
        guard let help = CommandCatalog.named(first) else { return [] }
        let arguments = Array(words.dropFirst())
        if current.hasPrefix("-") { return matching(help.options, current) }
        if let last = arguments.last, ["--timeout", "-n", "--since", "--until", "--svg", "--html"].contains(last) { return [] }
        let positionals = arguments.filter { !$0.hasPrefix("-") }
        return matching(options(for: help.name, after: positionals, current: current), current)
    }

    private func options(for command: String, after positionals: [String], current: String) -> [String] {
        // After `all` only the final word of net and wait may follow.
        if positionals.contains(where: { $0 == AccountSelection.allKeyword || $0.hasSuffix("/\(AccountSelection.allKeyword)") }) {
            switch command {
            case "net": return ["down", "up", "change"]
            case "wait": return ConnectionStatus.allKnown.map(\.name)
            default: return []
            }
        }
        switch command {
        case "help":
            return positionals.isEmpty ? CommandCatalog.all.map(\.name) : []
        case "use", "accounts":
            return positionals.isEmpty ? context.profiles.profiles.map(\.name) : []
        case "connect", "disconnect", "background", "foreground", "timeline":
            return accounts(current, includingAll: positionals.isEmpty)
        case "net":
            return accounts(current, includingAll: positionals.isEmpty) + (positionals.isEmpty ? [] : ["down", "up", "change"])
        case "wait":
            return accounts(current, includingAll: positionals.isEmpty) + (positionals.isEmpty ? [] : ConnectionStatus.allKnown.map(\.name))
        case "kick", "block", "unblock", "expire-token", "status", "log":
            return positionals.isEmpty ? accounts(current, includingAll: false) : []
        case "send", "history":
            if positionals.isEmpty { return accounts(current, includingAll: false) }
            return positionals.count == 1 ? users() : []
        default:
            return []
        }
    }

    /// The active profile's account names, and `PROFILE/ACCOUNT` of every profile once a word
    /// is begun (so `pr` TAB goes on to `prod/`).
    private func accounts(_ current: String, includingAll: Bool) -> [String] {
        var names: [String] = []
        if let active = context.activeProfile, let profile = context.profiles.profile(named: active) {
            names += profile.accounts.map(\.name)
        }
        if includingAll { names.append(AccountSelection.allKeyword) }
        if !current.isEmpty {
            for profile in context.profiles.profiles {
                names += profile.accounts.map { "\(profile.name)/\($0.name)" }
                if includingAll { names.append("\(profile.name)/\(AccountSelection.allKeyword)") }
            }
        }
        return names
    }

    /// The user ids of every account, for a peer to send to.
    private func users() -> [String] {
        var seen = Set<String>()
        return context.profiles.accounts.compactMap(\.userID).filter { seen.insert($0).inserted }
    }

    /// The candidates that start with `word`, ignoring case, each once.
    private func matching(_ candidates: [String], _ word: String) -> [String] {
        var seen = Set<String>()
        let lowered = word.lowercased()
        return candidates.filter { $0.lowercased().hasPrefix(lowered) && seen.insert($0).inserted }
    }
}
