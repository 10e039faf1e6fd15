import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// A token dated ahead of the server's clock by more than the allowed skew is refused, so it
/// cannot outlive its lifetime or an expire call.
@Suite(.timeLimit(.minutes(1)))
struct FutureTokenTests {
    private func login(_ server: TestServer, token: String) async throws -> (ReasonCode?, String?) {
        let client = try await MQTTTestClient.open(port: server.port)
        defer { client.close() }
        let connack = try await client.login(appKey: TestServer.appKey, token: token, device: "phone-1")
        return (connack?.reasonCode, connack?.properties.userProperty(IMUserProperty.error))
    }

    @Test func aTokenFromTheFutureIsRefusedAndOneWithinTheSkewIsNot() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let now = try TokenClaims.read(try await server.token("alice")).issuedAt
        let skew = LoginCheck.allowedClockSkewMilliseconds
        let future = try Token.issue(appKey: TestServer.appKey, secret: TestServer.secret, userID: "alice", issuedAt: now + skew + 60_000)
        let (code, name) = try await login(server, token: future)
        #expect(code == .badUserNameOrPassword && name == "token-incorrect")
        // expire.json for tokens issued before now must not be dodged by a date ahead.
        try await server.backend.expireTokens(appKey: TestServer.appKey, userIDs: ["alice"], before: now)
        #expect(try await login(server, token: future).0 == .badUserNameOrPassword)
        let slightlyAhead = try Token.issue(appKey: TestServer.appKey, secret: TestServer.secret, userID: "bob", issuedAt: now + 10_000)
        #expect(try await login(server, token: slightlyAhead).0 == .success)
        await server.stop()
    }
}
