import IMHTTP
import IMProfiles
import IMProtocol
import Testing

/// Every field read, with effective values in the order account > profile defaults > built-in.
struct ProfileFieldsTests {
    static func token(_ user: String, appKey: String = "k1") -> String {
        try! Token.sign(TokenClaims(appKey: appKey, userID: user, issuedAt: 1_700_000_000_000, nonce: "0011"), secret: "s")
    }

    static let everyField = """
    {
      "appKey": "k1",
      "server": ["mqtt://Example.COM:1884", "mqtt://10.0.0.1", "mqtt://[::1]:2000/"],
      "api": "http://127.0.0.1:8080/im",
      "appSecret": "s3cret-value-long",
      "defaults": {"timeout": 10, "reconnectKickEnable": true, "heartbeat": 45, "platform": "pc", "jitter": 0.5},
      "accounts": {
        "full": {"userId": "u1", "token": "\(token("u1"))", "deviceId": "dev-1", "platform": "web", "timeout": 0,
                 "reconnectKickEnable": false, "heartbeat": 5, "proxy": "socks5://me:p%40ss@Proxy.local:1081"},
        "inherits": {"userId": "u2", "tokenCommand": "printf tok"},
        "fromurl": {"tokenURL": "http://127.0.0.1:9/token?user=u3"},
        "byapi": {"userId": "u4"},
        "fromtoken": {"token": "\(token("u5"))"}
      }
    }
    """

    @Test func readsEveryProfileField() throws {
        let fixture = ProfileFixture()
        let (loaded, problems) = fixture.profile(Self.everyField)
        #expect(problems == [])
        let profile = try #require(loaded)
        #expect(profile.name == "dev")
        #expect(profile.file == fixture.file("dev.json"))
        #expect(profile.appKey == "k1")
        #expect(profile.server == .addresses([
            ServerAddress(host: "example.com", port: 1884), ServerAddress(host: "10.0.0.1", port: 1883),
            ServerAddress(host: "::1", port: 2000),
        ]))
        #expect(profile.api == HTTPURL(host: "127.0.0.1", port: 8080, path: "/im"))
        #expect(profile.appSecret?.value == "s3cret-value-long")
        #expect(profile.defaults == SessionSettings(timeout: 10, reconnectKickEnable: true, heartbeat: 45, platform: .pc, jitter: 0.5))
        #expect(profile.hasServerAPI)
        #expect(profile.accounts.map(\.name) == ["full", "inherits", "fromurl", "byapi", "fromtoken"])
    }

    @Test func accountFieldsOverrideProfileDefaults() throws {
        let (loaded, _) = ProfileFixture().profile(Self.everyField)
        let full = try #require(loaded?.account(named: "full"))
        #expect(full.profile == "dev")
        #expect(full.userID == "u1")
        #expect(full.tokenSource == .literal(Secret(Self.token("u1"))))
        #expect(full.deviceID == "dev-1")
        #expect(full.settings == SessionSettings(timeout: 0, reconnectKickEnable: false, heartbeat: 5, platform: .web, jitter: 0.5))
        #expect(full.proxy == ProxyAddress(host: "proxy.local", port: 1081, username: "me", password: Secret("p@ss")))
    }

    @Test func accountsWithoutSettingsTakeProfileDefaults() throws {
        let (loaded, _) = ProfileFixture().profile(Self.everyField)
        let profile = try #require(loaded)
        let inherits = try #require(profile.account(named: "inherits"))
        #expect(inherits.settings == profile.defaults)
        #expect(inherits.proxy == nil)
        #expect(inherits.tokenSource == .command("printf tok"))
        #expect(inherits.deviceID == Account.derivedDeviceID(profile: "dev", account: "inherits"))

        let fromURL = try #require(profile.account(named: "fromurl"))
        #expect(fromURL.userID == nil)
        #expect(fromURL.tokenSource == .url(HTTPURL(host: "127.0.0.1", port: 9, path: "/token", query: "user=u3")))
        #expect(profile.account(named: "byapi")?.tokenSource == .serverAPI)
        // No userId: the user the token was issued to.
        #expect(profile.account(named: "fromtoken")?.userID == "u5")
    }

    @Test func builtInDefaultsApplyWhenNeitherAccountNorProfileSets() throws {
        let text = """
        {"appKey": "k1", "server": "mqtt://h", "defaults": {"heartbeat": 50},
         "accounts": {"a": {"tokenCommand": "t"}, "b": {"tokenCommand": "t", "platform": "web"}}}
        """
        let (loaded, problems) = ProfileFixture().profile(text)
        #expect(problems == [])
        let profile = try #require(loaded)
        #expect(SessionSettings.builtIn == SessionSettings(timeout: 30, reconnectKickEnable: false, heartbeat: 30, platform: .mobile, jitter: 0))
        #expect(profile.defaults == SessionSettings(timeout: 30, reconnectKickEnable: false, heartbeat: 50, platform: .mobile, jitter: 0))
        #expect(profile.accounts[0].settings == profile.defaults)
        #expect(profile.accounts[1].settings == SessionSettings(timeout: 30, reconnectKickEnable: false, heartbeat: 50, platform: .web, jitter: 0))
        #expect(profile.api == nil && profile.appSecret == nil && !profile.hasServerAPI)
    }

    @Test func embeddedServerProvidesTheServerAPI() throws {
        let text = #"{"appKey": "k1", "server": "embedded", "appSecret": "x", "accounts": {"a": {"userId": "a"}}}"#
        let (loaded, problems) = ProfileFixture().profile(text)
        #expect(problems == [])
        let profile = try #require(loaded)
        #expect(profile.server == .embedded && profile.hasServerAPI)
        #expect(profile.accounts.first?.tokenSource == .serverAPI)
    }

    @Test func missingAccountsMeansNone() throws {
        let (loaded, problems) = ProfileFixture().profile(#"{"appKey": "k1", "server": "mqtt://h:1"}"#)
        #expect(problems == [])
        #expect(try #require(loaded).accounts.isEmpty)
    }

    @Test func derivedDeviceIDIsStableAndValid() {
        let id = Account.derivedDeviceID(profile: "dev", account: "alice-laptop")
        // `printf dev/alice-laptop | sha256sum` starts 6fad7712: the same on every run and machine.
        #expect(id == "alice-laptop-6fad7712")
        #expect(id != Account.derivedDeviceID(profile: "prod", account: "alice-laptop"))
        let dotted = Account.derivedDeviceID(profile: "dev", account: "a.b")
        #expect(dotted.hasPrefix("a_b-") && IMIdentifier.isValidDeviceID(dotted))
        let long = Account.derivedDeviceID(profile: "dev", account: String(repeating: "x", count: 64))
        #expect(long.utf8.count == 64 && IMIdentifier.isValidDeviceID(long))
    }
}
