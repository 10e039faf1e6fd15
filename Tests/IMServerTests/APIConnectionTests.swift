import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import Testing

/// HTTP/1.1 on the API's connections: methods, paths, limits, keep-alive, pipelining, timeouts.
struct APIConnectionTests {
    private static func getToken(_ user: String, extraHeaders: [(String, String)] = []) -> HTTPRequest {
        APIRequests.post("/user/getToken.json", [("userId", user), ("name", user)], extraHeaders: extraHeaders)
    }

    private static func user(of response: HTTPResponse) throws -> String? {
        try response.json.objectValue?["userId"]?.stringValue
    }

    @Test func otherMethodsAre405WithAllowPost() async throws {
        try await APITestServer.run { server in
            for method in ["GET", "PUT", "DELETE"] {
                var request = APIRequests.post("/user/kick.json", [("userId", "a")])
                request.method = method
                let response = try await server.exchange(request)
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers["Allow"] == "POST")
                #expect(try response.json == ["code": 405, "errorMessage": .string("/user/kick.json takes POST, not \(method)")])
            }
            #expect(await server.backend.calls.isEmpty)
        }
    }

    @Test func unknownPathsAre404() async throws {
        try await APITestServer.run { server in
            for path in ["/", "/user/getToken", "/user/getToken.json/x", "/USER/kick.json"] {
                let response = try await server.exchange(APIRequests.post(path, [("userId", "a")]))
                #expect(response.status == .notFound, "\(path)")
                #expect(try response.json == ["code": 404, "errorMessage": .string("no API endpoint at \(path)")])
            }
            // A query string is not part of the path.
            let withQuery = try await server.exchange(APIRequests.post("/user/kick.json?x=1", [("userId", "a")]))
            #expect(withQuery.status == .ok)
        }
    }

    @Test func aBodyOverTheLimitIs413BeforeItIsSent() async throws {
        var limits = ServerLimits()
        limits.apiMaxBodySize = 1024
        try await APITestServer.run(limits: limits) { server in
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            // Only the head: the answer must come from Content-Length alone.
            let tooLarge = APIRequests.post("/user/kick.json", [("userId", "a"), ("pad", String(repeating: "x", count: 1024 - 12))])
            #expect(tooLarge.body.count == 1025)
            try await client.send(Array(tooLarge.serialized().dropLast(tooLarge.body.count)))
            let responses = try await reader.untilClosed()
            #expect(responses.map(\.status) == [.payloadTooLarge])
            #expect(try responses.first?.json.objectValue?["code"] == 413)
            #expect(responses.first?.keepAlive == false)

            // At the limit the request is served.
            let atLimit = APIRequests.post("/user/kick.json", [("userId", "a"), ("pad", String(repeating: "x", count: 1024 - 13))])
            #expect(atLimit.body.count == 1024)
            #expect(try await server.exchange(atLimit).status == .ok)
        }
    }

    @Test(arguments: [
        ("POST /user/kick.json HTTP/2.0\r\nHost: a\r\n\r\n", 505),
        ("POST /user/kick.json HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 501),
        ("POST /user/kick.json HTTP/1.1\r\nHost: a\r\nX: \(String(repeating: "y", count: 17_000))\r\n\r\n", 431),
        ("POST /user/kick.json HTTP/1.1\r\n\r\n", 400),
        ("POST user/kick.json HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        ("POST /user/kick.json HTTP/1.1\r\nHost: a\r\nContent-Length: ten\r\n\r\n", 400),
    ])
    func unparsableRequestsAreAnsweredAndTheConnectionClosed(_ text: String, _ status: Int) async throws {
        try await APITestServer.run { server in
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            try await client.send(Array(text.utf8))
            let responses = try await reader.untilClosed()
            #expect(responses.map(\.status.rawValue) == [status])
            #expect(try responses.first?.json.objectValue?["code"]?.integerValue == Int64(status))
            #expect(responses.first?.headers["Connection"] == "close")
        }
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        try await APITestServer.run { server in
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            for user in ["u1", "u2", "u3", "u4"] {
                try await client.send(Self.getToken(user))
                let response = try await reader.next()
                #expect(response.status == .ok)
                #expect(response.keepAlive)
                #expect(try Self.user(of: response) == user)
            }
            #expect(server.server.connectionCount == 1)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await APITestServer.run { server in
            // Backend answers take a while, and the 404 in the middle is answered at once:
            // order must still be the order of the requests.
            await server.backend.setDelay(.milliseconds(30))
            var unknown = Self.getToken("x")
            unknown.target = "/nowhere.json"
            let requests = [Self.getToken("p0"), Self.getToken("p1"), unknown, Self.getToken("p2"), Self.getToken("p3")]
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            try await client.send(Array(requests.map { $0.serialized() }.joined()))
            var answered: [String] = []
            for _ in requests {
                let response = try await reader.next()
                answered.append(try Self.user(of: response) ?? "\(response.status.rawValue)")
            }
            #expect(answered == ["p0", "p1", "404", "p2", "p3"])
            #expect(await server.backend.calls == ["p0", "p1", "p2", "p3"].map { .issueToken(app: "app-one", user: $0) })
        }
    }

    @Test func whileARequestIsHandledTheServerReadsNoFurther() async throws {
        try await APITestServer.run { server in
            await server.backend.hold()
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            // Far more than the kernel's buffers hold behind one request: what the server
            // has not read stays queued on our side.
            let flood = [UInt8](repeating: UInt8(ascii: "x"), count: 32 << 20)
            let connection = client.connection
            try await client.send(Self.getToken("held"))
            let queued = try await apiOnLoop(connection.loop) { () throws -> Int in
                _ = try connection.send(flood)
                return connection.queuedByteCount
            }
            #expect(queued > 0)
            while await server.backend.calls.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            try await Task.sleep(for: .milliseconds(300))
            let stillQueued = try await apiOnLoop(connection.loop) { connection.queuedByteCount }
            #expect(stillQueued > 16 << 20, "the server kept reading while the request was handled")
            #expect(await server.backend.calls == [.issueToken(app: "app-one", user: "held")])
            // Then the request is answered, and the flood refused as a head far too long.
            await server.backend.release()
            let responses = try await reader.untilClosed()
            #expect(responses.map(\.status) == [.ok, .headerFieldsTooLarge])
        }
    }

    @Test func connectionCloseIsHonouredAndHTTP10ClosesByDefault() async throws {
        try await APITestServer.run { server in
            for (request, label) in [
                (Self.getToken("c1", extraHeaders: [("Connection", "close")]), "Connection: close"),
                ({ var request = Self.getToken("c2"); request.version = .http1_0; return request }(), "HTTP/1.0"),
            ] {
                let client = try await server.client()
                defer { client.close() }
                var reader = client.reader()
                // A second request behind the first is not served: the connection ends after the first.
                try await client.send(request.serialized() + Self.getToken("never").serialized())
                let responses = try await reader.untilClosed()
                #expect(responses.count == 1, "\(label)")
                #expect(responses.first?.status == .ok)
                #expect(responses.first?.headers["Connection"] == "close")
            }
            #expect(await !server.backend.calls.contains(.issueToken(app: "app-one", user: "never")))
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        try await APITestServer.run { server in
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            let request = Self.getToken("e1", extraHeaders: [("Expect", "100-continue")]).serialized()
            let headEnd = request.count - Self.getToken("e1").body.count
            try await client.send(Array(request[..<headEnd]))
            // The parser skips interim answers; the raw bytes show the 100 came before the body was sent.
            let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
            #expect(try await reader.rawBytes(atLeast: interim.count) == interim)
            try await client.send(Array(request[headEnd...]))
            let response = try await reader.next()
            #expect(response.status == .ok)
        }
    }
}
