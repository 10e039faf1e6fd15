import Foundation
import IMEncoding
import IMEngine
import IMProtocol
import IMServer
import IMTransport
import Testing
import TestSupport

/// The engine against imserver's WebSocket listener: logged in with the transport reported,
/// kicked by another device as over TCP, and an endpoint that answers HTTP without upgrading
/// named with its status and not retried.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct ImserverWebSocketEngineTests {
    func withServer(_ body: @escaping @Sendable (EmbeddedServer, @Sendable (ServerAddress) throws -> SessionEngine) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        var options = EmbeddedServer.Options(
            configuration: ServerConfiguration(apps: [IntegrationServer.app()]), dataDirectory: directory.path + "/server")
        options.webSocketPort = 0
        let server = try await EmbeddedServer.start(options)
        let makeEngine: @Sendable (ServerAddress) throws -> SessionEngine = { address in
            try SessionEngine(EngineConfiguration(
                appKey: IntegrationServer.appKey, servers: [address], dataDirectory: directory.path + "/engine-\(UUID())",
                callbacks: .immediate, networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: .seconds(3)))
        }
        let result = await Result { try await withTimeout(.seconds(30)) { try await body(server, makeEngine) } }
        await server.stop()
        try result.get()
    }

    @Test func aWebSessionLogsInAndIsKickedByAnotherDeviceAsOverTCP() async throws {
        try await withServer { server, makeEngine in
            let port = try #require(server.webSocketAddress?.port)
            let address = ServerAddress(host: "127.0.0.1", port: port, webSocketPath: "/mqtt")
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let first = try makeEngine(address), second = try makeEngine(address)
            let web = first.makeSession(ConnectParameters(token: token, deviceID: "web-a", platform: .web))
            #expect(try await web.connect() == "alice")
            #expect(await web.connectedServer?.scheme == "ws")
            let other = second.makeSession(ConnectParameters(token: token, deviceID: "web-b", platform: .web))
            #expect(try await other.connect() == "alice")
            for _ in 0..<200 where await web.status != .kickedOfflineByOtherClient { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await web.status == .kickedOfflineByOtherClient)
            await first.shutdown()
            await second.shutdown()
        }
    }

    @Test(arguments: [false, true])
    func anEndpointThatAnswersHTTPWithoutUpgradingIsNamedAndNotRetried(apiPort: Bool) async throws {
        try await withServer { server, makeEngine in
            let address = apiPort
                ? ServerAddress(host: "127.0.0.1", port: server.apiAddress.port, webSocketPath: "/mqtt")
                : ServerAddress(host: "127.0.0.1", port: try #require(server.webSocketAddress?.port), webSocketPath: "/ws")
            let engine = try makeEngine(address)
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let session = engine.makeSession(ConnectParameters(token: token, deviceID: "web-a", platform: .web))
            let error = await session.connectionError()
            #expect(error?.status == .unconnected && error?.code == .webSocketFailure, "\(String(describing: error))")
            #expect(error?.description.contains("answered the WebSocket upgrade with HTTP 404 Not Found") == true, "\(String(describing: error))")
            #expect(await session.statuses == [.connecting, .unconnected])
            await engine.shutdown()
        }
    }

    /// A 503 (a load balancer with no backend), or a close without an answer, is retried on
    /// the schedule: the connect ends with its timeout, not with 34021, after several attempts.
    @Test(arguments: ["HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n", ""])
    func anUnavailableEndpointIsRetried(answer: String) async throws {
        let endpoint = try RawTCPServer { fd in
            guard !RawTCPServer.receive(fd, until: [13, 10, 13, 10]).isEmpty else { return }
            RawTCPServer.send(fd, Array(answer.utf8))
        }
        defer { endpoint.stop() }
        let directory = TemporaryDirectory()
        let engine = try SessionEngine(EngineConfiguration(
            appKey: IntegrationServer.appKey, servers: [ServerAddress(host: "127.0.0.1", port: endpoint.port, webSocketPath: "/mqtt")],
            dataDirectory: directory.path, callbacks: .immediate, networkMonitor: .none, eventLoopThreads: 1,
            attemptTimeout: .seconds(3)))
        let session = engine.makeSession(ConnectParameters(token: "x.y", userID: "alice", timeout: .seconds(2), deviceID: "web-a"))
        let error = await session.connectionError()
        #expect(error?.status == .timeout, "\(String(describing: error))")
        #expect(endpoint.connectionCount >= 2, "retried")
        await engine.shutdown()
    }

    /// A server that logs the session in, then sends a close frame: the session reconnects,
    /// and the status change names the code and reason.
    @Test func aCloseFrameIsNamedWithItsCodeAndReasonAndRetried() async throws {
        let endpoint = try RawTCPServer { fd in
            let request = String(decoding: RawTCPServer.receive(fd, until: [13, 10, 13, 10]), as: UTF8.self)
            guard let line = request.split(separator: "\r\n").first(where: { $0.hasPrefix("Sec-WebSocket-Key: ") }) else { return }
            let accept = Base64.encode(Crypto.sha1(Array((line.dropFirst(19) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            RawTCPServer.send(fd, Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: \(accept)\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n").utf8))
            // The CONNECT frame: header, extended length, masking key, payload.
            let head = RawTCPServer.receive(fd, count: 2)
            guard head.count == 2 else { return }
            var length = Int(head[1] & 0x7F)
            if length == 126 { length = RawTCPServer.receive(fd, count: 2).reduce(0) { $0 << 8 | Int($1) } }
            _ = RawTCPServer.receive(fd, count: 4 + length)
            let reason = Array("maintenance".utf8)
            RawTCPServer.send(fd, [0x82, 5, 0x20, 3, 0, 0, 0] + [0x88, UInt8(2 + reason.count), 0x03, 0xE9] + reason)
            _ = RawTCPServer.receive(fd, count: 1000)
        }
        defer { endpoint.stop() }
        let directory = TemporaryDirectory()
        let engine = try SessionEngine(EngineConfiguration(
            appKey: IntegrationServer.appKey, servers: [ServerAddress(host: "127.0.0.1", port: endpoint.port, webSocketPath: "/mqtt")],
            dataDirectory: directory.path, callbacks: .immediate, networkMonitor: .none, eventLoopThreads: 1,
            attemptTimeout: .seconds(3)))
        let session = engine.makeSession(ConnectParameters(token: "x.y", userID: "alice", deviceID: "web-a"))
        let changes = await session.statusChanges()
        #expect(try await session.connect() == "alice")
        var named: StatusChange?
        for await change in changes where change.status == .connecting && change.detail.contains("1001") {
            named = change
            break
        }
        #expect(named?.detail.contains("the peer closed the WebSocket with code 1001 (going away): maintenance") == true,
                "\(String(describing: named))")
        await engine.shutdown()
    }
}
