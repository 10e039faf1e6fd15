import IMProtocol
import IMServer
import MQTT
import Testing

struct LoginCheckTests {
    let app = AppSettings(appKey: "k", appSecret: "s", tokenLifetime: .seconds(60))
    let issued: Int64 = 1_000_000

    func token(key: String = "k", secret: String = "s", user: String = "alice") -> String {
        try! Token.sign(TokenClaims(appKey: key, userID: user, issuedAt: issued, nonce: "00"), secret: secret)
    }

    func check(_ token: String, app: AppSettings?, now: Int64? = nil, standing: UserState = .init()) -> LoginCheck.Verdict {
        LoginCheck.evaluate(appKey: "k", token: token, app: app, now: now ?? issued + 1000) { _ in standing }
    }

    @Test func aGoodTokenNamesItsUser() {
        #expect(check(token(), app: app) == .accept(userID: "alice", issuedAt: issued))
    }

    @Test func unknownAndBlockedAppsComeFirst() {
        #expect(check("garbage", app: nil) == .refuse(.notAuthorized, .appUnknown))
        var blocked = app
        blocked.blocked = true
        #expect(check(token(), app: blocked) == .refuse(.notAuthorized, .appBlocked))
    }

    @Test(arguments: ["", "garbage", "a.b"]) func malformedTokensAreIncorrect(bad: String) {
        #expect(check(bad, app: app) == .refuse(.badUserNameOrPassword, .tokenIncorrect))
    }

    @Test func anotherAppsOrSecretsTokenIsIncorrect() {
        #expect(check(token(key: "other"), app: app) == .refuse(.badUserNameOrPassword, .tokenIncorrect))
        #expect(check(token(secret: "rotated"), app: app) == .refuse(.badUserNameOrPassword, .tokenIncorrect))
    }

    @Test func lifetimeAndInvalidationExpireTokens() {
        #expect(check(token(), app: app, now: issued + 59_999) == .accept(userID: "alice", issuedAt: issued))
        #expect(check(token(), app: app, now: issued + 60_000) == .refuse(.badUserNameOrPassword, .tokenExpired))
        var forever = app
        forever.tokenLifetime = nil
        #expect(check(token(), app: forever, now: issued + 1_000_000_000) == .accept(userID: "alice", issuedAt: issued))
        #expect(check(token(), app: app, standing: .init(tokensInvalidBefore: issued + 1)) == .refuse(.badUserNameOrPassword, .tokenExpired))
        #expect(check(token(), app: app, standing: .init(tokensInvalidBefore: issued)) == .accept(userID: "alice", issuedAt: issued))
    }

    @Test func deactivatedThenBlockedUsers() {
        #expect(check(token(), app: app, standing: .init(deactivated: true)) == .refuse(.notAuthorized, .userAbandoned))
        #expect(check(token(), app: app, standing: .init(blockedUntil: issued + 5000)) == .refuse(.banned, .userBlocked))
        #expect(check(token(), app: app, standing: .init(blockedUntil: issued)) == .accept(userID: "alice", issuedAt: issued))
    }
}
