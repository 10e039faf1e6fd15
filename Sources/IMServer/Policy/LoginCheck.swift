import IMProtocol
import MQTT

/// Decides whether a CONNECT's credentials let it in, in the order contract section 2 implies:
/// the app first, then the token, then the user's state. Device policy comes after, elsewhere.
///
/// Pure: the caller passes the app, the user's state and the time, so the rules are tested
/// without a server.
public enum LoginCheck {
    /// What the check found.
    public enum Verdict: Sendable, Equatable {
        /// The token is good: it belongs to `userID`.
        case accept(userID: String, issuedAt: Int64)
        /// Refuse with this CONNACK reason code and `im-error`.
        case refuse(ReasonCode, IMErrorName)
    }

    /// What the server knows of the user the token names.
    public struct UserStanding: Sendable, Equatable {
        /// Blocked until this time (ms since epoch); nil or past means not blocked.
        public var blockedUntil: Int64?
        public var deactivated: Bool
        /// Tokens issued before this time (ms) no longer work.
        public var tokensInvalidBefore: Int64?

        public init(blockedUntil: Int64? = nil, deactivated: Bool = false, tokensInvalidBefore: Int64? = nil) {
            self.blockedUntil = blockedUntil
            self.deactivated = deactivated
            self.tokensInvalidBefore = tokensInvalidBefore
        }

        public func isBlocked(at now: Int64) -> Bool { blockedUntil.map { $0 > now } ?? false }
    }

    /// Checks `token` for `app` (nil: the app key is unknown), reading the user's standing
    /// through `standing` once the token names the user.
    public static func evaluate(
        appKey: String, token: String, app: AppSettings?, now: Int64,
        standing: (_ userID: String) -> UserStanding
    ) -> Verdict {
        guard let app else { return .refuse(.notAuthorized, .appUnknown) }
        guard !app.blocked else { return .refuse(.notAuthorized, .appBlocked) }
        let claims: TokenClaims
        do {
            claims = try Token.verify(token, appKey: appKey, secret: app.appSecret)
        } catch {
            return .refuse(.badUserNameOrPassword, .tokenIncorrect)
        }
        let user = standing(claims.userID)
        if let lifetime = app.tokenLifetime, now - claims.issuedAt >= Int64(lifetime / .milliseconds(1)) {
            return .refuse(.badUserNameOrPassword, .tokenExpired)
        }
        if let invalidBefore = user.tokensInvalidBefore, claims.issuedAt < invalidBefore {
            return .refuse(.badUserNameOrPassword, .tokenExpired)
        }
        if user.deactivated { return .refuse(.notAuthorized, .userAbandoned) }
        if user.isBlocked(at: now) { return .refuse(.banned, .userBlocked) }
        return .accept(userID: claims.userID, issuedAt: claims.issuedAt)
    }
}
