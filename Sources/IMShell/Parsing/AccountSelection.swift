import IMProfiles

/// The accounts a command acts on: named ones, or `all` of a profile.
public enum AccountSelection: Equatable, Sendable, CustomStringConvertible {
    /// Every account of the profile (the active one when nil): for `connect`, all of its
    /// accounts; for the other commands, those with a session.
    case all(profile: String?)
    case accounts([AccountReference])

    /// The word that selects every account: `all`, or `PROFILE/all`.
    public static let allKeyword = "all"

    /// Reads `all`, `PROFILE/all`, or one or more `ACCOUNT` / `PROFILE/ACCOUNT`.
    init(parsing words: [String], command: String) throws(CommandSyntaxError) {
        guard !words.isEmpty else { throw CommandSyntaxError("\(command): name at least one account, or all") }
        var references: [AccountReference] = []
        var all: String??
        for word in words {
            let reference: AccountReference
            do {
                reference = try AccountReference(parsing: word)
            } catch {
                throw CommandSyntaxError("\(command): \(error)")
            }
            if reference.account == Self.allKeyword {
                all = .some(reference.profile)
            } else {
                references.append(reference)
            }
        }
        if let all {
            guard words.count == 1 else { throw CommandSyntaxError("\(command): 'all' stands alone; drop the other accounts") }
            self = .all(profile: all)
        } else {
            self = .accounts(references)
        }
    }

    public var description: String {
        switch self {
        case .all(let profile): return profile.map { "\($0)/\(Self.allKeyword)" } ?? Self.allKeyword
        case .accounts(let references): return references.map(\.description).joined(separator: " ")
        }
    }
}
