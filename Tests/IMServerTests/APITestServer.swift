import IMHTTP
@testable import IMServer
import IMTransport
import TestSupport

/// An API server on 127.0.0.1 with its backend, clock and a client loop.
struct APITestServer: Sendable {
    let server: APIServer
    let backend: APITestBackend
    let clock: APITestClock
    let clientLoop: EventLoop
    var port: UInt16 { server.localAddress.port }

    func client() async throws -> APITestClient {
        try await APITestClient.connect(port: port, on: clientLoop)
    }

    /// Sends one request on a new connection and returns the answer.
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let client = try await client()
        defer { client.close() }
        var reader = client.reader()
        try await client.send(request)
        return try await reader.next()
    }

    /// Runs `body` against a fresh server (HTTPS with `tls`) within `limit`; closes everything
    /// after (the body may close the server itself: a second `close()` does nothing).
    static func run(
        limits: ServerLimits = ServerLimits(), options: APIServerOptions = APIServerOptions(),
        backend: APITestBackend = APITestBackend(), tls: TLSServerIdentity? = nil, limit: Duration = .seconds(20),
        _ body: @escaping @Sendable (APITestServer) async throws -> Void
    ) async throws {
        let group = try EventLoopGroup(threads: 2, name: "api")
        let clientLoop = try EventLoop(name: "api-client")
        defer {
            clientLoop.shutdown()
            group.shutdown()
        }
        let clock = APITestClock()
        var options = options
        options.clock = clock.clock
        let server = try APIServer(group: group, backend: backend, limits: limits, options: options, tls: tls)
        let fixture = APITestServer(server: server, backend: backend, clock: clock, clientLoop: clientLoop)
        do {
            try await withTimeout(limit) { try await body(fixture) }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }
}
