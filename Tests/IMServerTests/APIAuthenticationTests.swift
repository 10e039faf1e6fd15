import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import Testing

/// Signing headers, timestamps and nonces: everything that is not right is a 401 (code 1004).
struct APIAuthenticationTests {
    private static let kick = "/user/kick.json"
    private static let fields = [("userId", "alice")]

    /// Sends a kick signed with `signing`; returns the answer and whether the backend was reached.
    private func kick(_ server: APITestServer, signing: [(String, String)]?) async throws -> (HTTPResponse, Bool) {
        let response = try await server.exchange(APIRequests.post(Self.kick, Self.fields, signing: signing))
        return (response, await !server.backend.calls.isEmpty)
    }

    private func expectUnauthorized(
        _ response: HTTPResponse, mentioning text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == .unauthorized, sourceLocation: sourceLocation)
        let json = try response.json.objectValue
        #expect(json?["code"] == 1004, sourceLocation: sourceLocation)
        let message = json?["errorMessage"]?.stringValue ?? ""
        #expect(message.contains(text), "\(message)", sourceLocation: sourceLocation)
    }

    @Test func rcPrefixedHeaderNamesAreAccepted() async throws {
        try await APITestServer.run { server in
            let (response, reached) = try await kick(server, signing: APISigner(prefix: "RC-").headers())
            #expect(response.status == .ok)
            #expect(reached)
        }
    }

    @Test func aWrongSignatureIsRefused() async throws {
        try await APITestServer.run { server in
            let wrongSecret = APISigner(secret: "not-the-secret").headers()
            let (response, reached) = try await kick(server, signing: wrongSecret)
            try expectUnauthorized(response, mentioning: "signature does not match")
            #expect(!reached)
        }
    }

    @Test func aSignatureOverOtherValuesIsRefused() async throws {
        try await APITestServer.run { server in
            var headers = APISigner().headers()
            headers[2].1 = String(APITestClock.start + 1)  // the timestamp changed after signing
            let (response, reached) = try await kick(server, signing: headers)
            try expectUnauthorized(response, mentioning: "signature does not match")
            #expect(!reached)
        }
    }

    @Test(arguments: ["App-Key", "Nonce", "Timestamp", "Signature"])
    func aMissingHeaderIsRefused(_ name: String) async throws {
        try await APITestServer.run { server in
            let headers = APISigner().headers().filter { $0.0 != name }
            let (response, reached) = try await kick(server, signing: headers)
            try expectUnauthorized(response, mentioning: "missing header \(name)")
            #expect(!reached)
        }
    }

    @Test func anUnknownAppKeyIsRefused() async throws {
        try await APITestServer.run { server in
            let (response, reached) = try await kick(server, signing: APISigner(appKey: "nobody").headers())
            try expectUnauthorized(response, mentioning: "unknown app key nobody")
            #expect(!reached)
        }
    }

    @Test func aLongNonceAndATimestampThatIsNoNumberAreRefused() async throws {
        try await APITestServer.run { server in
            let (long, _) = try await kick(server, signing: APISigner().headers(nonce: String(repeating: "n", count: 19)))
            try expectUnauthorized(long, mentioning: "header Nonce invalid")
            var headers = APISigner().headers()
            headers[2].1 = "17e11"
            let (notNumber, reached) = try await kick(server, signing: headers)
            try expectUnauthorized(notNumber, mentioning: "header Timestamp invalid")
            #expect(!reached)
        }
    }

    @Test(arguments: [-1, 1])
    func aTimestampJustOutsideFiveMinutesIsRefusedAndOneAtTheEdgeAccepted(_ direction: Int64) async throws {
        try await APITestServer.run { server in
            let edge = APITestClock.start + direction * APICredentials.freshnessWindow
            let (stale, reached) = try await kick(server, signing: APISigner().headers(timestamp: edge + direction))
            try expectUnauthorized(stale, mentioning: "more than 5 minutes")
            #expect(!reached)
            let (atEdge, _) = try await kick(server, signing: APISigner().headers(timestamp: edge))
            #expect(atEdge.status == .ok)
        }
    }

    @Test func aReplayedNonceIsRefusedButAnotherAppMayUseIt() async throws {
        try await APITestServer.run { server in
            let headers = APISigner().headers(nonce: "once")
            let (first, _) = try await kick(server, signing: headers)
            #expect(first.status == .ok)
            let (replay, _) = try await kick(server, signing: headers)
            try expectUnauthorized(replay, mentioning: "nonce once was already used")
            // The same nonce with a new timestamp is still a replay within the window.
            let (retimed, _) = try await kick(server, signing: APISigner().headers(nonce: "once", timestamp: APITestClock.start + 1))
            try expectUnauthorized(retimed, mentioning: "already used")
            let (otherApp, _) = try await kick(server, signing: APISigner.other.headers(nonce: "once"))
            #expect(otherApp.status == .ok)
            #expect(await server.backend.calls.count == 2)
        }
    }

    @Test func aNonceMayBeUsedAgainOnceTheWindowHasPassed() async throws {
        try await APITestServer.run { server in
            let (first, _) = try await kick(server, signing: APISigner().headers(nonce: "again"))
            #expect(first.status == .ok)
            server.clock.advance(by: APICredentials.freshnessWindow + 1)
            let later = APISigner().headers(nonce: "again", timestamp: server.clock.now)
            let (second, _) = try await kick(server, signing: later)
            #expect(second.status == .ok)
        }
    }

    @Test func aFloodOfNoncesIsRefusedWith503UntilTheyExpireWithoutTouchingOtherApps() async throws {
        var options = APIServerOptions()
        options.maxNoncesPerApp = 3
        try await APITestServer.run(options: options) { server in
            for _ in 0..<3 {
                let (response, _) = try await kick(server, signing: APISigner().headers())
                #expect(response.status == .ok)
            }
            let (flooded, _) = try await kick(server, signing: APISigner().headers())
            #expect(flooded.status == .serviceUnavailable)
            #expect(try flooded.json.objectValue?["code"] == 1008)
            #expect(flooded.headers["Retry-After"] == "300")
            let (otherApp, _) = try await kick(server, signing: APISigner.other.headers())
            #expect(otherApp.status == .ok)

            server.clock.advance(by: APICredentials.freshnessWindow + 1)
            let (afterwards, _) = try await kick(server, signing: APISigner().headers(timestamp: server.clock.now))
            #expect(afterwards.status == .ok)
        }
    }

    @Test func aBlockedAppIsForbidden() async throws {
        try await APITestServer.run { server in
            var app = APITestBackend.app
            app.blocked = true
            await server.backend.setApp(app)
            let (response, reached) = try await kick(server, signing: APISigner().headers())
            #expect(response.status == .forbidden)
            #expect(try response.json == ["code": 403, "errorMessage": "app key app-one is blocked"])
            #expect(!reached)
        }
    }
}
