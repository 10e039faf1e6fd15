import Foundation
import IMEngine
import IMProtocol
import IMStore
import MQTT
import Synchronization
import Testing
import TestSupport

enum TestTokens {
    static let appKey = "app1"
    static let secret = "secret1"

    /// A well-formed token for `user`, as the server would issue it; the same for the same arguments.
    static func token(for user: String, issuedAt: Int64 = 1) -> String {
        try! Token.sign(TokenClaims(appKey: appKey, userID: user, issuedAt: issuedAt, nonce: "00c0ffee"), secret: secret)
    }
}

/// What the connect callbacks did, in order.
final class CallRecorder: Sendable {
    enum Event: Equatable, Sendable {
        case databaseOpened(isRecreated: Bool, error: EngineError?)
        case completed(userID: String?, error: EngineError?)
    }

    private let recorded = Mutex<[Event]>([])

    var events: [Event] { recorded.withLock { $0 } }

    var completion: (userID: String?, error: EngineError?)? {
        for case let .completed(userID, error) in events { return (userID, error) }
        return nil
    }

    var databaseOpened: @Sendable (Bool, EngineError?) -> Void {
        { isRecreated, error in self.recorded.withLock { $0.append(.databaseOpened(isRecreated: isRecreated, error: error)) } }
    }

    var completed: @Sendable (String?, EngineError?) -> Void {
        { userID, error in self.recorded.withLock { $0.append(.completed(userID: userID, error: error)) } }
    }

    /// Waits until the completion ran.
    func waitForCompletion(within limit: Duration = .seconds(5)) async -> (userID: String?, error: EngineError?)? {
        _ = await eventually(within: limit) { self.completion != nil }
        return completion
    }
}

/// An engine over temp storage, without the real network monitor, for one test.
final class TestEngine: Sendable {
    let directory = TemporaryDirectory()
    let engine: SessionEngine

    init(servers: [ServerAddress], clock: any EngineClock = SystemEngineClock(),
         callbacks: CallbackExecutor = .immediate, stagger: Duration = .milliseconds(250),
         attemptTimeout: Duration = .seconds(3), databaseIdleClose: Duration? = .seconds(30)) throws {
        var configuration = EngineConfiguration(
            appKey: TestTokens.appKey, servers: servers, dataDirectory: directory.path, callbacks: callbacks,
            clock: clock, networkMonitor: .none, eventLoopThreads: 1, serverStagger: stagger,
            attemptTimeout: attemptTimeout, tokenFetchTimeout: .seconds(5))
        configuration.databaseIdleClose = databaseIdleClose
        engine = try SessionEngine(configuration)
    }

    /// A session for `user` with a fresh token and a short heartbeat.
    func session(_ user: String = "alice", _ configure: (inout ConnectParameters) -> Void = { _ in }) -> Session {
        var parameters = ConnectParameters(token: TestTokens.token(for: user), deviceID: "dev-\(user)", heartbeat: 30)
        configure(&parameters)
        return engine.makeSession(parameters)
    }

    func shutdown() async { await engine.shutdown() }
}

extension Session {
    /// The statuses reported so far, in order.
    var statuses: [ConnectionStatus] { statusHistory.map(\.status) }

    /// Waits until status `status` was reported; whether it was.
    func reached(_ status: ConnectionStatus, within limit: Duration = .seconds(5)) async -> Bool {
        await eventually(within: limit) { await self.statuses.contains(status) }
    }
}

extension Connect {
    func userProperty(_ name: String) -> String? { properties.userProperty(name) }
}

/// Reads a session's database file directly, on the calling thread, without its locks (see
/// `FileSnapshot`): what is committed to the file at this moment, as a killed process would
/// leave it.
enum DatabaseProbe {
    static func rows(_ path: String, _ sql: String, _ arguments: [DatabaseValue] = []) -> [[DatabaseValue]] {
        FileSnapshot.rows(path, sql, arguments) ?? []
    }

    static func count(uid: String, in path: String) -> Int {
        Int(FileSnapshot.integer(path, "SELECT count(*) FROM message WHERE uid = ?", [.text(uid)]) ?? -1)
    }

    /// Waits until the session has given its file back (an engine with a short
    /// `databaseIdleClose`), then holds the file's write lock from a connection of its own, as
    /// the sqlite3 shell could, so the session's next write waits; `ROLLBACK` and close it to
    /// let go.
    static func holdWriteLock(_ path: String) async throws -> Database {
        guard await eventually(within: .seconds(5), { OpenDescriptors.count(on: path) == 0 }) else {
            throw TestFailure("the session kept \(path) open")
        }
        var configuration = Database.Configuration()
        configuration.journalMode = nil
        let database = try Database(path: path, configuration: configuration)
        try database.executeScript("BEGIN IMMEDIATE")
        return database
    }

    /// The state of the outgoing message `cid` (1 pending, 2 sent), nil when it is not there.
    static func state(cid: String, in path: String) -> Int? {
        rows(path, "SELECT state FROM message WHERE direction = 1 AND cid = ?", [.text(cid)]).first?[0].int64.map(Int.init)
    }
}

/// Runs `body` with a scripted broker and an engine pointed at it, within `limit`; shuts both
/// down after (the engine's shutdown closes the sessions).
func withBroker(
    _ script: ScriptedBroker.Script = .init(), clock: any EngineClock = SystemEngineClock(),
    callbacks: CallbackExecutor = .immediate, attemptTimeout: Duration = .seconds(3), limit: Duration = .seconds(15),
    databaseIdleClose: Duration? = .seconds(30),
    _ body: @escaping @Sendable (ScriptedBroker, TestEngine) async throws -> Void
) async throws {
    let broker = try ScriptedBroker(script)
    defer { broker.shutdown() }
    let test = try TestEngine(servers: [broker.address], clock: clock, callbacks: callbacks, attemptTimeout: attemptTimeout,
                              databaseIdleClose: databaseIdleClose)
    let result = await Result { try await withTimeout(limit) { try await body(broker, test) } }
    await test.shutdown()
    try result.get()
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
