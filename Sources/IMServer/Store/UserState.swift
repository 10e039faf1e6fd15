/// What the server remembers about one user of one app between logins.
public struct UserState: Sendable, Equatable {
    /// Logins are refused until this time (ms since the epoch); nil when not blocked.
    public var blockedUntil: Int64?
    /// Logins are refused until the user is reactivated.
    public var deactivated: Bool
    /// Tokens issued before this time (ms since the epoch) are expired; nil when none is.
    public var tokensInvalidBefore: Int64?

    public init(blockedUntil: Int64? = nil, deactivated: Bool = false, tokensInvalidBefore: Int64? = nil) {
        self.blockedUntil = blockedUntil
        self.deactivated = deactivated
        self.tokensInvalidBefore = tokensInvalidBefore
    }

    /// The state of a user the server has never been told anything about.
    public static let initial = UserState()

    /// Whether a block is in force at `now` (ms since the epoch).
    public func isBlocked(at now: Int64) -> Bool {
        blockedUntil.map { now < $0 } ?? false
    }

    /// Whether a token issued at `issuedAt` (ms) has been expired by `/user/token/expire.json`.
    public func hasExpired(tokenIssuedAt issuedAt: Int64) -> Bool {
        tokensInvalidBefore.map { issuedAt < $0 } ?? false
    }
}
