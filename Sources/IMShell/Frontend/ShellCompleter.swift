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
        guard let definition = CommandCatalog.named(first) else { return [] }
        if current.hasPrefix("-") { return matching(definition.options, current) }
        var positionals: [String] = []
        var expectsValue = false
        for word in words.dropFirst() {
            if expectsValue {
                expectsValue = false
            } else if word.hasPrefix("-"), word.count > 1, Double(word) == nil {
                expectsValue = definition.valueOptions.contains(word)
            } else {
                positionals.append(word)
            }
        }
        if expectsValue { return [] }
        return matching(candidates(for: definition.arguments, after: positionals, current: current), current)
    }

    /// What may come next, from the command's declared arguments: a selection takes any number
    /// of accounts (`all` only first, and nothing after it but the next argument).
    private func candidates(for arguments: [CommandDefinition.Argument], after positionals: [String], current: String) -> [String] {
        guard let selection = arguments.firstIndex(of: .selection) else {
            return positionals.count < arguments.count ? values(arguments[positionals.count], current) : []
        }
        let next = arguments.dropFirst(selection + 1).first.map { values($0, current) } ?? []
        if positionals.contains(where: { $0 == AccountSelection.allKeyword || $0.hasSuffix("/\(AccountSelection.allKeyword)") }) {
            return next
        }
        return accounts(current, includingAll: positionals.isEmpty) + (positionals.isEmpty ? [] : next)
    }

    private func values(_ argument: CommandDefinition.Argument, _ current: String) -> [String] {
        switch argument {
        case .command: return CommandCatalog.all.map(\.name)
        case .profile: return context.profiles.profiles.map(\.name)
        case .account: return accounts(current, includingAll: false)
        case .selection: return accounts(current, includingAll: true)
        case .user: return users()
        case .choice(let words): return words
        case .text: return []
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
