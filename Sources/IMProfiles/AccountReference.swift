/// An account as the shell names it: `PROFILE/ACCOUNT`, or `ACCOUNT` alone when that is unambiguous.
public struct AccountReference: Sendable, Hashable, CustomStringConvertible {
    /// `nil` when written without a profile.
    public var profile: String?
    public var account: String

    public init(profile: String?, account: String) {
        self.profile = profile
        self.account = account
    }

    /// Parses `PROFILE/ACCOUNT` or `ACCOUNT`; each part must be a valid profile or account name.
    public init(parsing text: String) throws(AccountReferenceError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw AccountReferenceError(text, "expected PROFILE/ACCOUNT with one '/'") }
        if parts.count == 2 {
            guard ProfileName.isValid(parts[0]) else { throw AccountReferenceError(text, "invalid profile name '\(parts[0])'; \(ProfileName.rule)") }
            profile = String(parts[0])
        }
        let name = parts[parts.count - 1]
        guard ProfileName.isValid(name) else { throw AccountReferenceError(text, "invalid account name '\(name)'; \(ProfileName.rule)") }
        account = String(name)
    }

    public var description: String { profile.map { "\($0)/\(account)" } ?? account }
}
