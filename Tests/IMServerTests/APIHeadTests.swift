import IMHTTP
@testable import IMServer
import Testing

/// A HEAD request is answered with the head a GET would get and no body (RFC 9110 section 9.3.2).
struct APIHeadTests {
    @Test func aHeadRequestGetsNoBody() async throws {
        try await APITestServer.run { server in
            for path in ["/user/kick.json", "/nowhere"] {
                let client = try await server.client()
                defer { client.close() }
                var reader = client.reader()
                var request = APIRequests.post(path, [("userId", "a")], extraHeaders: [("Connection", "close")])
                request.method = "HEAD"
                try await client.send(request.serialized())
                // Everything the server sends before it closes.
                _ = try? await reader.rawBytes(atLeast: 1 << 20)
                let text = String(decoding: reader.raw, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 4"), "\(text)")
                #expect(text.contains("Content-Length: "))
                #expect(text.hasSuffix("\r\n\r\n"), "a body followed the head: \(text)")
            }
        }
    }
}
