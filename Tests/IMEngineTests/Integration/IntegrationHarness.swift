import IMChaos
import IMEngine
import IMServer
import Synchronization
import TestSupport
import IMProtocol

/// One integration test's server, engines and proxies, all closed at the end whatever happens.
///
/// Each engine stands for one device: its own data directory, reaching the server directly or
/// through a fault proxy.
final class IntegrationHarness: Sendable {
    let server: IntegrationServer
    private let engines = Mutex<[(SessionEngine, TemporaryDirectory)]>([])
    private let proxies = Mutex<[FaultProxy]>([])

    init(server: IntegrationServer) { self.server = server }

    /// A new engine for `appKey`, reaching the server directly or through `proxy`.
    func engine(
        via proxy: FaultProxy? = nil, appKey: String = IntegrationServer.appKey, attemptTimeout: Duration = .seconds(3),
        takeoverLimit: Int = 0
    ) throws -> SessionEngine {
        let address = proxy.map { ServerAddress(host: "127.0.0.1", port: $0.port) } ?? server.address
        let directory = TemporaryDirectory()
        var configuration = EngineConfiguration(
            appKey: appKey, servers: [address], dataDirectory: directory.path, callbacks: .immediate,
            networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: attemptTimeout, tokenFetchTimeout: .seconds(5))
        configuration.takeoverLimit = takeoverLimit
        let engine = try SessionEngine(configuration)
        engines.withLock { $0.append((engine, directory)) }
        return engine
    }

    /// The data directory of `engine`.
    func directory(of engine: SessionEngine) -> String? {
        engines.withLock { $0.first { $0.0 === engine }?.1.path }
    }

    /// A fault proxy in front of the server.
    func proxy() throws -> FaultProxy {
        let proxy = try FaultProxy(targetPort: server.port)
        proxies.withLock { $0.append(proxy) }
        return proxy
    }

    /// A session of `user` on `device` whose token the server issued.
    func session(
        _ user: String, device: String, on engine: SessionEngine, _ configure: (inout ConnectParameters) -> Void = { _ in }
    ) async throws -> Session {
        var parameters = ConnectParameters(token: try await server.token(user), deviceID: device, heartbeat: 30)
        configure(&parameters)
        return engine.makeSession(parameters)
    }

    /// `count` sessions on `engine`, users `user0`... on devices `phone-0`...
    func sessions(_ count: Int, on engine: SessionEngine) async throws -> [Session] {
        var sessions: [Session] = []
        for index in 0..<count {
            sessions.append(try await session("user\(index)", device: "phone-\(index)", on: engine))
        }
        return sessions
    }

    func close() async {
        for (engine, _) in engines.withLock({ $0 }) { await engine.shutdown() }
        for proxy in proxies.withLock({ $0 }) { await proxy.stop() }
        await server.stop()
    }
}

/// Runs `body` against a fresh embedded server with `apps` and `limits`, within `limit`; closes everything after.
func withIntegration(
    apps: [AppSettings] = [IntegrationServer.app()], limits: ServerLimits = ServerLimits(), limit: Duration = .seconds(30),
    _ body: @escaping @Sendable (IntegrationHarness) async throws -> Void
) async throws {
    let harness = IntegrationHarness(server: try await IntegrationServer.start(apps: apps, limits: limits))
    let result = await Result { try await withTimeout(limit) { try await body(harness) } }
    await harness.close()
    try result.get()
}

extension Session {
    /// The last status change reported.
    var lastChange: StatusChange? { statusHistory.last }

    /// Connects and returns the error that ended the call, or nil when it connected.
    func connectionError() async -> EngineError? {
        do {
            _ = try await connect()
            return nil
        } catch {
            return error
        }
    }
}
