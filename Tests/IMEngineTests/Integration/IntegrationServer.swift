import TestSupport
import IMEngine
import IMServer
import IMTransport
import Synchronization
import IMProtocol

/// The real IM server, embedded, on 127.0.0.1 over a temporary data directory, for tests of
/// the engine against it. It can be stopped and started again on the same directory and the
/// same MQTT port, and its wall clock can be moved forward (token lifetimes).
final class IntegrationServer: Sendable {
    /// The app the engine's tests log in to (`TestTokens`' key and secret).
    static let appKey = TestTokens.appKey
    static let secret = TestTokens.secret

    let directory = TemporaryDirectory()
    let configuration: ServerConfiguration
    private let wallOffset = WallOffset()
    private let running = Mutex<EmbeddedServer?>(nil)
    private let boundPort = Mutex<UInt16>(0)

    /// The app settings tests start from; the kick policy is left to clients, as seed 003 needs.
    static func app(lifetime: Duration? = nil, clientControlsKickPolicy: Bool = true, blocked: Bool = false) -> AppSettings {
        AppSettings(appKey: appKey, appSecret: secret, tokenLifetime: lifetime,
                    clientControlsKickPolicy: clientControlsKickPolicy, blocked: blocked)
    }

    private init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Starts a server on a free port.
    static func start(apps: [AppSettings] = [app()], limits: ServerLimits = ServerLimits()) async throws -> IntegrationServer {
        let server = IntegrationServer(configuration: ServerConfiguration(apps: apps, limits: limits))
        try await server.start()
        return server
    }

    /// Starts the server (again): the first time on a free port, later on that same port.
    func start() async throws {
        let offset = wallOffset
        let system = ServerClock.system
        let clock = ServerClock(
            wallMilliseconds: { system.wallMilliseconds() + offset.value.withLock { $0 } }, monotonic: system.monotonic)
        let options = EmbeddedServer.Options(
            configuration: configuration, mqttPort: boundPort.withLock { $0 }, dataDirectory: directory.path, clock: clock)
        let server = try await Self.start(options)
        boundPort.withLock { $0 = server.mqttAddress.port }
        running.withLock { $0 = server }
    }

    /// Starts on `options`; while the port is taken, tries again for up to 10 s.
    ///
    /// While the server is down, the kernel may hand its port to another test's connection
    /// as a local port; the port is free again once that connection closes.
    private static func start(_ options: EmbeddedServer.Options) async throws -> EmbeddedServer {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try await EmbeddedServer.start(options)
            } catch TransportError.addressInUse where options.mqttPort != 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Stops gracefully (DISCONNECT 0x8B to every client); `start` brings it back.
    func stop() async {
        let server = running.withLock { running in
            defer { running = nil }
            return running
        }
        await server?.stop()
    }

    /// Stops, then starts again on the same data directory and port.
    func restart() async throws {
        await stop()
        try await start()
    }

    var port: UInt16 { boundPort.withLock { $0 } }
    var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

    /// The running server's backend (the server API without HTTP).
    var backend: any ServerAPIBackend {
        get throws {
            guard let server = running.withLock({ $0 }) else { throw TestFailure("the server is not running") }
            return server.backend
        }
    }

    /// A token the server issues for `user`.
    func token(_ user: String) async throws -> String {
        try await backend.issueToken(appKey: Self.appKey, userID: user)
    }

    func isOnline(_ user: String) async throws -> Bool {
        try await backend.isOnline(appKey: Self.appKey, userID: user)
    }

    /// The server's wall clock now (ms), as it checks tokens.
    func now() -> Int64 { ServerClock.system.wallMilliseconds() + wallOffset.value.withLock { $0 } }

    /// Moves the server's wall clock forward.
    func advanceWallClock(by duration: Duration) {
        wallOffset.value.withLock { $0 += Int64(duration / .milliseconds(1)) }
    }

    /// How far the test moved the server's wall clock (ms); shared with the clock closure.
    private final class WallOffset: Sendable {
        let value = Mutex<Int64>(0)
    }
}
