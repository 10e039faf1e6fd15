import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import Testing

/// Each endpoint, correctly signed: the backend is asked the right thing and the answer is right.
struct APIEndpointTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var fields: [(String, String)]
        var call: APITestBackend.Call
        var answer: JSONValue
        var testDescription: String { path }
    }

    private static let app = APITestBackend.app.appKey

    static let cases: [Case] = [
        Case(
            path: "/user/getToken.json", fields: [("userId", "alice"), ("name", "Alice A.")],
            call: .issueToken(app: app, user: "alice"),
            answer: ["code": 200, "userId": "alice", "token": "token-alice-1"]),
        Case(
            path: "/user/token/expire.json", fields: [("userId", "alice"), ("userId", "b+o=b_-1"), ("time", "1749999999123")],
            call: .expireTokens(app: app, users: ["alice", "b+o=b_-1"], before: 1_749_999_999_123), answer: ["code": 200]),
        Case(
            path: "/user/block.json", fields: [("userId", "alice"), ("userId", "bob"), ("minute", "43200")],
            call: .block(app: app, users: ["alice", "bob"], minutes: 43_200), answer: ["code": 200]),
        Case(
            path: "/user/unblock.json", fields: [("userId", "alice"), ("userId", "bob")],
            call: .unblock(app: app, users: ["alice", "bob"]), answer: ["code": 200]),
        Case(
            path: "/user/deactivate.json", fields: [("userId", "alice")],
            call: .deactivate(app: app, users: ["alice"]), answer: ["code": 200]),
        Case(
            path: "/user/reactivate.json", fields: [("userId", "alice"), ("userId", "bob"), ("userId", "alice")],
            call: .reactivate(app: app, users: ["alice", "bob"]), answer: ["code": 200]),
        Case(
            path: "/user/kick.json", fields: [("userId", "bob"), ("unrelated", "ignored")],
            call: .kick(app: app, users: ["bob"]), answer: ["code": 200]),
        Case(
            path: "/user/checkOnline.json", fields: [("userId", "alice")],
            call: .isOnline(app: app, user: "alice"), answer: ["code": 200, "status": "1"]),
        Case(
            path: "/user/checkOnline.json", fields: [("userId", "carol")],
            call: .isOnline(app: app, user: "carol"), answer: ["code": 200, "status": "0"]),
        Case(
            path: "/message/private/publish.json",
            fields: [
                ("fromUserId", "alice"), ("toUserId", "bob"), ("toUserId", "carol"),
                ("content", #"{"text":"hi ☃ & = +","extra":{"k":1}}"#), ("objectName", "RC:TxtMsg"),
            ],
            call: .publish(app: app, from: "alice", to: ["bob", "carol"], text: "hi ☃ & = +"),
            answer: ["code": 200, "messageUID": "uid-1"]),
    ]

    @Test(arguments: cases)
    func signedRequestCallsTheBackendAndAnswersWithJSON(_ testCase: Case) async throws {
        try await APITestServer.run { server in
            await server.backend.setOnline(["alice"])
            let response = try await server.exchange(APIRequests.post(testCase.path, testCase.fields))
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
            #expect(try response.json == testCase.answer)
            #expect(await server.backend.calls == [testCase.call])
        }
    }

    @Test func theOtherAppsRequestsReachTheBackendUnderItsOwnKey() async throws {
        try await APITestServer.run { server in
            let request = APIRequests.post("/user/kick.json", [("userId", "dave")], signing: APISigner.other.headers())
            let response = try await server.exchange(request)
            #expect(response.status == .ok)
            #expect(await server.backend.calls == [.kick(app: APITestBackend.otherApp.appKey, users: ["dave"])])
        }
    }

    @Test func aBackendFailureIsA500WithItsMessage() async throws {
        try await APITestServer.run { server in
            await server.backend.setFailing(true)
            let response = try await server.exchange(APIRequests.post("/user/block.json", [("userId", "a"), ("minute", "5")]))
            #expect(response.status == .internalServerError)
            #expect(try response.json == [
                "code": 1000, "errorMessage": "/user/block.json failed: the store is read-only",
            ])
        }
    }
}
