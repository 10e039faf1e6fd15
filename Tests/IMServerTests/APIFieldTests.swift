import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import Testing

/// A missing or malformed field: HTTP 400, code 1002, a message naming the field; no backend call.
struct APIFieldTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var fields: [(String, String)]
        /// The start of the error message: the field and what is wrong.
        var message: String
        var testDescription: String { "\(path): \(message)" }
    }

    private static let longID = String(repeating: "u", count: 65)
    private static let repeatableUserPaths = [
        "/user/unblock.json", "/user/deactivate.json", "/user/reactivate.json", "/user/kick.json",
    ]

    static let cases: [Case] = [
        Case(path: "/user/getToken.json", fields: [("name", "A")], message: "userId: missing"),
        Case(path: "/user/getToken.json", fields: [("userId", "a b"), ("name", "A")], message: "userId: 'a b' is not a user id"),
        Case(path: "/user/getToken.json", fields: [("userId", longID), ("name", "A")], message: "userId: '\(longID.prefix(40))…' is not a user id"),
        Case(path: "/user/getToken.json", fields: [("userId", "a"), ("userId", "b"), ("name", "A")], message: "userId: given 2 times"),
        Case(path: "/user/getToken.json", fields: [("userId", "a")], message: "name: missing"),
        Case(path: "/user/getToken.json", fields: [("userId", "a"), ("name", String(repeating: "é", count: 65))], message: "name: longer than 128 bytes"),
        Case(path: "/user/token/expire.json", fields: [("time", "1")], message: "userId: missing"),
        Case(path: "/user/token/expire.json", fields: [("userId", "a")], message: "time: missing"),
        Case(path: "/user/token/expire.json", fields: [("userId", "a"), ("time", "soon")], message: "time: 'soon' is not a whole number of ms"),
        Case(path: "/user/token/expire.json", fields: [("userId", "a"), ("time", "-5")], message: "time: '-5' is not a whole number"),
        Case(path: "/user/token/expire.json", fields: [("userId", "a"), ("time", "99999999999999999999")], message: "time: '99999999999999999999' is not a whole number"),
        Case(path: "/user/token/expire.json", fields: [("userId", "a"), ("userId", "b/c"), ("time", "1")], message: "userId: 'b/c' is not a user id"),
        Case(path: "/user/block.json", fields: [("minute", "10")], message: "userId: missing"),
        Case(path: "/user/block.json", fields: [("userId", "a")], message: "minute: missing"),
        Case(path: "/user/block.json", fields: [("userId", "a"), ("minute", "0")], message: "minute: 0 is out of range 1-43200 of minutes"),
        Case(path: "/user/block.json", fields: [("userId", "a"), ("minute", "43201")], message: "minute: 43201 is out of range 1-43200"),
        Case(path: "/user/block.json", fields: [("userId", "a"), ("minute", "1.5")], message: "minute: '1.5' is not a whole number"),
        Case(path: "/user/checkOnline.json", fields: [], message: "userId: missing"),
        Case(path: "/user/checkOnline.json", fields: [("userId", "")], message: "userId: '' is not a user id"),
        Case(path: "/user/checkOnline.json", fields: [("userId", "a"), ("userId", "b")], message: "userId: given 2 times, expected once"),
        Case(path: "/message/private/publish.json", fields: [("toUserId", "b"), ("content", #"{"text":"x"}"#)], message: "fromUserId: missing"),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a!"), ("toUserId", "b"), ("content", #"{"text":"x"}"#)], message: "fromUserId: 'a!' is not a user id"),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a"), ("content", #"{"text":"x"}"#)], message: "toUserId: missing"),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a"), ("toUserId", "b")], message: "content: missing"),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a"), ("toUserId", "b"), ("content", "hello")], message: "content: invalid JSON"),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a"), ("toUserId", "b"), ("content", #"{"text":5}"#)], message: "content: content must be a JSON object with a string \"text\""),
        Case(path: "/message/private/publish.json", fields: [("fromUserId", "a"), ("toUserId", "b"), ("content", #"["text"]"#)], message: "content: content must be a JSON object"),
    ] + repeatableUserPaths.flatMap { path in
        [
            Case(path: path, fields: [], message: "userId: missing"),
            Case(path: path, fields: [("userId", "ok"), ("userId", "not ok")], message: "userId: 'not ok' is not a user id"),
            Case(path: path, fields: Array(repeating: ("userId", "u"), count: 1001), message: "userId: given 1001 times, at most 1000"),
        ]
    }

    @Test(arguments: cases)
    func isRefusedWith1002NamingTheField(_ testCase: Case) async throws {
        try await APITestServer.run { server in
            let response = try await server.exchange(APIRequests.post(testCase.path, testCase.fields))
            try expectFieldError(response, startingWith: testCase.message)
            #expect(await server.backend.calls.isEmpty)
        }
    }

    @Test func aBodyThatIsNotAFormIsRefused() async throws {
        try await APITestServer.run { server in
            var wrongType = APIRequests.post("/user/kick.json", [("userId", "a")])
            wrongType.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
            try expectFieldError(try await server.exchange(wrongType), startingWith: "Content-Type: 'application/json' is not")

            var badEscape = APIRequests.post("/user/kick.json", [])
            badEscape.body = Array("userId=%zz".utf8)
            try expectFieldError(try await server.exchange(badEscape), startingWith: "body: invalid form data at byte 7")

            var charset = APIRequests.post("/user/kick.json", [("userId", "a")])
            charset.headers.replaceOrAdd(name: "Content-Type", value: "Application/X-WWW-Form-URLEncoded; charset=UTF-8")
            #expect(try await server.exchange(charset).status == .ok)
        }
    }

    private func expectFieldError(
        _ response: HTTPResponse, startingWith prefix: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        #expect(response.status == .badRequest, sourceLocation: sourceLocation)
        let json = try response.json.objectValue
        #expect(json?.keys == ["code", "errorMessage"], sourceLocation: sourceLocation)
        #expect(json?["code"] == 1002, sourceLocation: sourceLocation)
        let message = json?["errorMessage"]?.stringValue ?? ""
        #expect(message.hasPrefix(prefix), "\(message)", sourceLocation: sourceLocation)
    }
}
