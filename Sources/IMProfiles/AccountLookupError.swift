/// Why `PROFILE/ACCOUNT` names no loaded account, in words for the shell.
public enum AccountLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownProfile(String)
    /// The profile's file exists but has errors.
    case profileNotLoaded(String)
    case unknownAccount(AccountReference)
    /// An account named without its profile exists in several profiles.
    case ambiguous(String, [AccountReference])

    public var description: String {
        switch self {
        case .unknownProfile(let name): return "no profile named \(name)"
        case .profileNotLoaded(let name): return "profile \(name) did not load; fix the errors in its file"
        case .unknownAccount(let reference):
            return reference.profile.map { "profile \($0) has no account \(reference.account)" } ?? "no account named \(reference.account)"
        case .ambiguous(let name, let candidates):
            return "\(name) is in several profiles; write one of \(candidates.map(\.description).joined(separator: ", "))"
        }
    }
}
