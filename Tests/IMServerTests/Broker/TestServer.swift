import TestSupport
import IMServer
import IMTransport
import Synchronization

/// An embedded server on 127.0.0.1 port 0 over a temporary data directory, with a wall clock
/// the test can move.
final class TestServer: Sendable {
    static let appKey = "test-app"
    static let secret = "test-secret"

    let server: EmbeddedServer
    let offset: ClockOffset

    var port: UInt16 { server.mqttAddress.port }
    var apiPort: UInt16 { server.apiAddress.port }
    /// The MQTT over TLS port, when started with `tls`.
    var tlsPort: UInt16? { server.mqttTLSAddress?.port }
    /// The HTTPS API port, when started with `tls`.
    var apiTLSPort: UInt16? { server.apiTLSAddress?.port }
    /// The MQTT over WebSocket port (always open in tests).
    var webSocketPort: UInt16? { server.webSocketAddress?.port }
    /// The MQTT over WebSocket over TLS port, when started with `tls`.
    var secureWebSocketPort: UInt16? { server.secureWebSocketAddress?.port }
    var backend: any ServerAPIBackend { server.backend }
    /// The port of `/metrics`, `/healthz` and `/readyz` (always open in tests).
    var metricsPort: UInt16 { server.metricsAddress?.port ?? 0 }

    private init(server: EmbeddedServer, offset: ClockOffset) {
        self.server = server
        self.offset = offset
    }

    static func app(lifetime: Duration? = nil, clientKickPolicy: Bool = true, blocked: Bool = false) -> AppSettings {
        AppSettings(appKey: appKey, appSecret: secret, tokenLifetime: lifetime,
                    clientControlsKickPolicy: clientKickPolicy, blocked: blocked)
    }

    /// Starts a server with `apps` (by default one test app) on `directory`, with a WebSocket
    /// listener; with `tls`, TLS listeners for MQTT, WebSocket and the API as well, on free ports.
    ///
    /// The store is `storeURL`'s PostgreSQL database when given; else, when the environment
    /// names a PostgreSQL server (`IMSH_TEST_POSTGRES`, as `scripts/test` does for its second
    /// run of the server tests), a fresh database there; else SQLite in `directory`.
    static func start(
        directory: TemporaryDirectory, apps: [AppSettings] = [app()], limits: ServerLimits = ServerLimits(),
        tls: TLSServerIdentity? = nil, storeURL: String? = nil, nodeName: String? = nil
    ) async throws -> TestServer {
        let offset = ClockOffset()
        let system = ServerClock.system
        let clock = ServerClock(
            wallMilliseconds: { system.wallMilliseconds() + offset.milliseconds.withLock { $0 } },
            monotonic: system.monotonic)
        var options = EmbeddedServer.Options(
            configuration: ServerConfiguration(apps: apps, limits: limits), dataDirectory: directory.path, clock: clock)
        options.webSocketPort = 0
        options.metricsPort = 0
        options.storeURL = try storeURL ?? TestPostgresDatabase.fromEnvironment(for: directory.path)
        options.nodeName = nodeName
        if let tls { (options.tls, options.mqttTLSPort, options.apiTLSPort, options.secureWebSocketPort) = (tls, 0, 0, 0) }
        let server = try await EmbeddedServer.start(options)
        return TestServer(server: server, offset: offset)
    }

    /// Moves the server's wall clock forward.
    func advanceWallClock(by milliseconds: Int64) {
        offset.milliseconds.withLock { $0 += milliseconds }
    }

    /// The server's wall clock now (ms).
    func now() -> Int64 { ServerClock.system.wallMilliseconds() + offset.milliseconds.withLock { $0 } }

    func token(_ user: String) async throws -> String {
        try await backend.issueToken(appKey: Self.appKey, userID: user)
    }

    /// A client logged in as `user` on `device`, with its inbox subscribed.
    func loggedIn(
        _ user: String, device: String, platform: String? = nil, tls: TLSConnectSettings? = nil, webSocket: Bool = false
    ) async throws -> MQTTTestClient {
        let plain = webSocket ? webSocketPort ?? port : port
        let secure = webSocket ? secureWebSocketPort ?? port : tlsPort ?? port
        let client = try await MQTTTestClient.open(port: tls == nil ? plain : secure, tls: tls, webSocket: webSocket ? WebSocketSettings() : nil)
        let connack = try await client.login(appKey: Self.appKey, token: try await token(user), device: device, platform: platform)
        // A failed login fails this test alone (a precondition would take the whole test process down).
        guard connack?.reasonCode == .success else {
            throw TestFailure("login of \(user) failed: \(String(describing: connack))")
        }
        _ = try await client.subscribeInbox()
        return client
    }

    func stop() async { await server.stop() }
}

/// How far a test has moved the server's wall clock.
final class ClockOffset: Sendable {
    let milliseconds = Mutex<Int64>(0)
}
