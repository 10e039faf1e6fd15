import IMProfiles
import IMProtocol
import Testing

/// Every validation error, with its exact file:line:col, field and reason.
struct ProfileValidationTests {
    @Test func reportsEveryErrorOfAFile() {
        let text = """
        {
          "appKey": "bad key",
          "server": "tcp://h:1",
          "api": "https://x?q",
          "apiSecret": "x",
          "defaults": {"timeout": -1, "heartbeat": 0, "jitter": 1.5, "platform": "tv"},
          "accounts": {
            "a": {"token": "t", "tokenCommand": "c"},
            "b": {},
            "c": {"userId": "no spaces", "deviceId": "x+y", "proxy": "socks5://h:0", "tokenCommand": "c"},
            "bad/name": {"userId": "u"},
            "d": {"userId": "u", "tokenURL": "ftp://x"},
            "e": {"userId": "u", "tokenCommand": "c", "timeout": 1.5, "reconnectKickEnable": "yes", "jitter": 0},
            "a": {},
            "all": {"userId": "u"}
          }
        }
        """
        #expect(ProfileFixture().diagnostics(text) == [
            "dev.json:2:13: error: appKey: must be at most 255 bytes without spaces or control characters",
            "dev.json:3:13: error: server: unsupported scheme tcp; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH",
            "dev.json:4:10: error: api: a base URL has no query; expected http://HOST:PORT",
            "dev.json:5:3: error: apiSecret: unknown field (did you mean 'appSecret'?)",
            "dev.json:6:27: error: defaults.timeout: -1 is out of range 0...86400",
            "dev.json:6:44: error: defaults.heartbeat: 0 is out of range 1...3600",
            "dev.json:6:57: error: defaults.jitter: 1.5 is out of range 0.0...1.0",
            "dev.json:6:74: error: defaults.platform: expected one of mobile, pc, web, found \"tv\"",
            "dev.json:8:25: error: accounts.a.tokenCommand: give only one of token, tokenCommand, tokenURL (token is given)",
            // One diagnostic for what getting a token from the server API lacks: the hint once.
            "dev.json:9:5: error: accounts.b: has no token, tokenCommand or tokenURL, and the profile has no appSecret and the account no userId to get one from the server API",
            "dev.json:10:21: error: accounts.c.userId: \"no spaces\" is not valid; user ids are 1-64 characters of A-Z a-z 0-9 + = _ -",
            "dev.json:10:46: error: accounts.c.deviceId: \"x+y\" is not valid; device ids are 1-64 characters of A-Z a-z 0-9 _ -",
            "dev.json:10:62: error: accounts.c.proxy: port must be a number from 1 to 65535",
            "dev.json:11:5: error: accounts.bad/name: invalid account name; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'",
            "dev.json:12:38: error: accounts.d.tokenURL: unsupported scheme ftp; use http:// or https://",
            "dev.json:13:58: error: accounts.e.timeout: expected a whole number, found 1.5",
            "dev.json:13:86: error: accounts.e.reconnectKickEnable: expected true or false, found a string",
            "dev.json:13:93: error: accounts.e.jitter: unknown field",
            "dev.json:14:5: error: accounts.a: appears more than once",
            "dev.json:15:5: error: accounts.all: the name all is reserved: in commands it means every account of the profile",
        ])
    }

    @Test func serverAddressesAreCheckedOneByOne() {
        let text = """
        {
          "appKey": "",
          "server": ["mqtt://a", 5, "embedded", "mqtt://[::1", "mqtt://::1", "mqtt://h:99999", "mqtt://u@h", "h:1"],
          "appSecret": "s",
          "accounts": {"x": {"userId": "x"}}
        }
        """
        #expect(ProfileFixture().diagnostics(text) == [
            "dev.json:2:13: error: appKey: must not be empty",
            "dev.json:3:26: error: server[1]: expected an address mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH, found a number",
            "dev.json:3:29: error: server[2]: \"embedded\" stands alone, not in a list of addresses",
            "dev.json:3:41: error: server[3]: unclosed '[' in the host",
            "dev.json:3:56: error: server[4]: put an IPv6 address in brackets, as in [::1]:1883",
            "dev.json:3:70: error: server[5]: port must be a number from 1 to 65535",
            "dev.json:3:88: error: server[6]: only a host and port may follow mqtt://; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH",
            "dev.json:3:102: error: server[7]: expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH (or \"embedded\")",
        ])
    }

    @Test func accountWithoutTokenNeedsAServerAPI() {
        let text = #"{"appKey": "k", "server": "mqtt://h", "appSecret": "s", "accounts": {"x": {"userId": "x"}}}"#
        #expect(ProfileFixture().diagnostics(text) == [
            "dev.json:1:70: error: accounts.x: has no token, tokenCommand or tokenURL, and the profile has no api (or embedded server) to get one from",
        ])
        // With the server API at hand, the user id alone is what is missing.
        let noUser = #"{"appKey": "k", "server": "embedded", "appSecret": "s", "accounts": {"x": {}}}"#
        #expect(ProfileFixture().diagnostics(noUser) == [
            "dev.json:1:75: error: accounts.x.userId: missing (required to get a token from the server API)",
        ])
        // A server or api field in error is reported once, not again for every account.
        let misspelt = #"{"appKey": "k", "server": "embeded", "appSecret": 1, "accounts": {"x": {"userId": "x"}}}"#
        #expect(ProfileFixture().diagnostics(misspelt) == [
            "dev.json:1:27: error: server: expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH (or \"embedded\")",
            "dev.json:1:51: error: appSecret: expected a string, found a number",
        ])
    }

    @Test func emptyServerListAndQueryInAPI() {
        let text = #"{"appKey": "k", "server": [], "api": "http://h:1/?a=b"}"#
        #expect(ProfileFixture().diagnostics(text) == [
            "dev.json:1:27: error: server: the list of addresses is empty",
            "dev.json:1:38: error: api: a base URL has no query; expected http://HOST:PORT",
        ])
    }

    @Test func wrongTypesNameWhatWasExpected() {
        let text = #"{"appKey": 1, "server": true, "api": 2, "appSecret": [], "defaults": "x", "accounts": []}"#
        #expect(ProfileFixture().diagnostics(text) == [
            "dev.json:1:12: error: appKey: expected a string, found a number",
            "dev.json:1:25: error: server: expected \"embedded\", an address mqtt://HOST:PORT (mqtts:// for TLS) or an array of addresses, found a boolean",
            "dev.json:1:38: error: api: expected a string, found a number",
            "dev.json:1:54: error: appSecret: expected a string, found an array",
            "dev.json:1:70: error: defaults: expected an object, found a string",
            "dev.json:1:87: error: accounts: expected an object of accounts by name, found an array",
        ])
        let account = #"{"appKey": "k", "server": "embedded", "accounts": {"a": 5}}"#
        #expect(ProfileFixture().diagnostics(account) == ["dev.json:1:57: error: accounts.a: expected an object, found a number"])
        #expect(ProfileFixture().diagnostics("[1]") == ["dev.json:1:1: error: expected an object, found an array"])
    }

    @Test func requiredFields() {
        #expect(ProfileFixture().diagnostics("{}") == [
            "dev.json:1:1: error: appKey: missing (required)",
            "dev.json:1:1: error: server: missing (required)",
        ])
    }

    @Test func warningsDoNotStopTheProfile() throws {
        let foreign = try Token.sign(TokenClaims(appKey: "k2", userID: "u2", issuedAt: 0, nonce: "01"), secret: "s")
        let text = """
        {
          "appKey": "k1",
          "server": "embedded",
          "api": "http://h:1",
          "appSecret": "s",
          "accounts": {
            "a": {"userId": "u1", "token": "\(foreign)"},
            "b": {"userId": "u1", "deviceId": "same"},
            "c": {"userId": "u1", "deviceId": "same"}
          }
        }
        """
        let (profile, problems) = ProfileFixture().profile(text)
        #expect(problems == [
            "dev.json:4:10: warning: api: ignored: accounts of an embedded server use its own API",
            "dev.json:7:36: warning: accounts.a.token: the token belongs to user u2, not userId u1",
            "dev.json:7:36: warning: accounts.a.token: the token was issued for app key k2, not k1",
            "dev.json:9:39: warning: accounts.c.deviceId: same device as account b: the two take over each other's MQTT session",
        ])
        #expect(profile?.accounts.map(\.name) == ["a", "b", "c"])
        #expect(profile?.account(named: "a")?.userID == "u1")
    }

    @Test func tokenNotOfTheContractsFormIsAcceptedAsIs() throws {
        // A stock broker's password can be anything; without userId the engine learns the user later.
        let (profile, problems) = ProfileFixture().profile(#"{"appKey": "k", "server": "mqtt://h", "accounts": {"a": {"token": "plain"}}}"#)
        #expect(problems == [])
        let account = try #require(profile?.accounts.first)
        #expect(account.userID == nil && account.tokenSource == .literal(Secret("plain")))
    }

    @Test func tokenCommandWithoutUserIdIsFine() {
        let (profile, problems) = ProfileFixture().profile(#"{"appKey": "k", "server": "mqtt://h", "accounts": {"a": {"tokenCommand": "x"}}}"#)
        #expect(problems == [])
        #expect(profile?.accounts.first?.userID == nil)
    }
}
