import IMProfiles
import IMProtocol
import Testing

/// Tokens and secrets never print in full.
struct SecretTests {
    @Test func redactsToAHint() {
        #expect(Secret("eyJ2IjoxLCJrIjoiaW1zaCJ9.abc").redacted == "eyJ2…")
        #expect(Secret("short-value").redacted == "…")
        #expect(Secret("").redacted == "…")
        let secret = Secret("imsh-dev-secret-long")
        #expect("\(secret)" == "imsh…" && String(reflecting: secret) == "Secret(imsh…)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("secret-long"))
    }

    @Test func profilesAndAccountsShowNoSecret() throws {
        let token = try Token.sign(TokenClaims(appKey: "k", userID: "alice", issuedAt: 0, nonce: "ab"), secret: "s")
        let text = """
        {"appKey": "k", "server": "mqtt://h", "api": "http://h:8080", "appSecret": "app-secret-value",
         "accounts": {"a": {"token": "\(token)", "proxy": "socks5://me:proxy-password@p:1"}}}
        """
        let (loaded, _) = ProfileFixture().profile(text)
        let profile = try #require(loaded)
        let account = try #require(profile.accounts.first)
        let shown = [profile.description, account.description, "\(profile)", "\(account)", String(reflecting: profile)]
        for line in shown {
            #expect(!line.contains("secret-value") && !line.contains(token) && !line.contains("proxy-password"))
        }
        #expect(profile.description == "dev appKey=k server=mqtt://h:1883 api=http://h:8080/ appSecret=app-… accounts=1")
        #expect(account.description == "dev/a user=alice device=\(account.deviceID) platform=mobile token \(token.prefix(4))… proxy=socks5://me:prox…@p:1")
    }
}
