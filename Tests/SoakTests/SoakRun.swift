import Foundation
import IMChaos
import IMEngine
import IMProtocol
import IMTransport
import Synchronization

/// One soak: an imserver process, the fault proxy in front of it, and one engine's sessions
/// behind the proxy, with everything they did recorded for the checks at the end.
final class SoakRun: Sendable {
    /// The development app every imserver serves without a configuration file.
    static let appKey = "imsh-dev"
    static let secret = "imsh-dev-secret"

    struct State {
        var server: ServerProcess?
        var lives = 1
        var crashes: [String] = []
        var memory = ResidentMemory()
        var trafficStopped = false
    }

    let settings: SoakSettings
    let directory: String
    let proxy: FaultProxy
    let engine: SessionEngine
    let sessions: [Session]
    let users: [String]
    let ledger = SoakLedger()
    let tally: FaultTally
    let state = Mutex(State())

    private init(settings: SoakSettings, directory: String, server: ServerProcess, proxy: FaultProxy,
                 tally: FaultTally, engine: SessionEngine, sessions: [Session], users: [String]) {
        self.settings = settings
        self.directory = directory
        self.proxy = proxy
        self.tally = tally
        self.engine = engine
        self.sessions = sessions
        self.users = users
        state.withLock { $0.server = server }
    }

    /// Starts the server, the proxy and the sessions, and connects every session.
    static func start(_ settings: SoakSettings) async throws -> SoakRun {
        _ = try? ProcessLimits.raiseOpenFileLimit()
        let directory = NSTemporaryDirectory() + "imsh-soak-" + UUID().uuidString
        // Private, as imserver wants its data directory whatever the umask.
        try FileManager.default.createDirectory(
            atPath: directory + "/server", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try await ServerProcess.start(dataDirectory: directory + "/server", life: 0)
        let tally = FaultTally()
        let proxy: FaultProxy, engine: SessionEngine
        do {
            proxy = try FaultProxy(targetPort: server.mqttPort) { tally.record($0) }
            engine = try SessionEngine(EngineConfiguration(
                appKey: appKey, servers: [ServerAddress(host: "127.0.0.1", port: proxy.port)],
                dataDirectory: directory + "/clients", callbacks: .immediate, networkMonitor: .none,
                attemptTimeout: .seconds(5)))
        } catch {
            await server.kill()
            throw error
        }
        let users = (0..<settings.sessions).map { "soak\($0)" }
        let issuedAt = Int64(Date().timeIntervalSince1970 * 1000)
        var sessions: [Session] = []
        for (index, user) in users.enumerated() {
            let token = try Token.issue(appKey: appKey, secret: secret, userID: user, issuedAt: issuedAt)
            sessions.append(engine.makeSession(ConnectParameters(
                token: token, deviceID: "soak-device-\(index)", heartbeat: settings.heartbeat)))
        }
        let run = SoakRun(settings: settings, directory: directory, server: server, proxy: proxy, tally: tally,
                          engine: engine, sessions: sessions, users: users)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for session in sessions { group.addTask { _ = try await session.connect() } }
                try await group.waitForAll()
            }
        } catch {
            await run.tearDown(keepFiles: false)
            throw error
        }
        return run
    }

    var currentServer: ServerProcess? { state.withLock { $0.server } }

    /// Shuts everything down; the run's directory is kept when `keepFiles` (for a failed run).
    func tearDown(keepFiles: Bool) async {
        await engine.shutdown()
        await proxy.stop()
        if let server = currentServer, server.isRunning { await server.kill() }
        if keepFiles {
            print("soak: the run's files (databases, server logs) are kept in \(directory)")
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
