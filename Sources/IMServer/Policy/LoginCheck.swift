import IMProtocol
import MQTT

/// Decides whether a CONNECT's credentials let it in, in the order contract section 2 implies:
/// the app first, then the token, then the user's state. Device policy comes after, elsewhere.
///
/// Pure: the caller passes the app, the user's state and the time, so the rules are tested
/// without a server.
public enum LoginCheck {
    /// How far ahead of the server's clock a token's issued-at may be (ms): the issuer's clock
    /// may run a little ahead of this server's.
    public static let allowedClockSkewMilliseconds: Int64 = 5 * 60 * 1000

    /// What the check found.
    public enum Verdict: Sendable, Equatable {
        /// The token is good: it belongs to `userID`.
        case accept(userID: String, issuedAt: Int64)
        /// Refuse with this CONNACK reason code and `im-error`.
        case refuse(ReasonCode, IMErrorName)
    }

    /// A refusal: the CONNACK reason code and `im-error`.
    public struct Refusal: Error, Sendable, Equatable {
        public var code: ReasonCode
        public var name: IMErrorName
    }

    /// Checks `token` for `app` (nil: the app key is unknown), reading the user's standing
    /// through `standing` once the token names the user.
    public static func evaluate(
        appKey: String, token: String, app: AppSettings?, now: Int64,
        standing: (_ userID: String) -> UserState
    ) -> Verdict {
        switch checkToken(appKey: appKey, token: token, app: app) {
        case .failure(let refusal):
            return .refuse(refusal.code, refusal.name)
        case .success(let claims):
            // checkToken succeeds only with an app.
            return admit(claims, app: app!, user: standing(claims.userID), now: now)
        }
    }

    /// The first half of `evaluate`: the app and the token's signature, before the user's
    /// standing is known (the server reads it from its store in between).
    public static func checkToken(appKey: String, token: String, app: AppSettings?) -> Result<TokenClaims, Refusal> {
        guard let app else { return .failure(Refusal(code: .notAuthorized, name: .appUnknown)) }
        guard !app.blocked else { return .failure(Refusal(code: .notAuthorized, name: .appBlocked)) }
        do {
            return .success(try Token.verify(token, appKey: appKey, secret: app.appSecret))
        } catch {
            return .failure(Refusal(code: .badUserNameOrPassword, name: .tokenIncorrect))
        }
    }

    /// The second half of `evaluate`: a verified token's age, and the user's standing.
    public static func admit(_ claims: TokenClaims, app: AppSettings, user: UserState, now: Int64) -> Verdict {
        // A token dated ahead would outlive its lifetime and every expire call made before
        // its date: beyond the clocks' allowed disagreement, it is not a token we issued.
        if claims.issuedAt > now + allowedClockSkewMilliseconds {
            return .refuse(.badUserNameOrPassword, .tokenIncorrect)
        }
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
