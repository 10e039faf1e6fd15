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

    /// Checks `token` for `app` (nil: the app key is unknown), reading the user's standing
    /// through `standing` once the token names the user.
    public static func evaluate(
        appKey: String, token: String, app: AppSettings?, now: Int64,
        standing: (_ userID: String) -> UserState
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
        if user.hasExpired(tokenIssuedAt: claims.issuedAt) {
            return .refuse(.badUserNameOrPassword, .tokenExpired)
        }
        if user.deactivated { return .refuse(.notAuthorized, .userAbandoned) }
        if user.isBlocked(at: now) { return .refuse(.banned, .userBlocked) }
        return .accept(userID: claims.userID, issuedAt: claims.issuedAt)
    }
}
