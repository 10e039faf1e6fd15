import Foundation
import TestSupport
import IMEngine
import IMProtocol
import MQTT
import Synchronization
import Testing

/// Many sessions in one engine, handlers, and the local database's life.
@Suite(.timeLimit(.minutes(1)))
struct SessionIsolationTests {
    @Test func manySessionsShareTheLoopsAndOneFailingDisturbsNoOther() async throws {
        let users = (0..<40).map { "user\($0)" }
        try await withBroker { broker, test in
            let sessions = users.map { test.session($0) }
            try await withThrowingTaskGroup(of: String.self) { group in
                for session in sessions { group.addTask { try await session.connect() } }
                var connected: Set<String> = []
                for try await user in group { connected.insert(user) }
                #expect(connected == Set(users))
            }
            #expect(broker.connectionCount == users.count)
            let victim = try #require(broker.packets.first {
                if case .connect(let connect) = $0.packet { connect.clientIdentifier == "dev-user7" } else { false }
            }?.index)
            broker.send(.disconnect(Disconnect(reasonCode: .administrativeAction,
                                               properties: [.userProperty(IMUserProperty.error, "kicked")])), on: victim)
            #expect(await sessions[7].reached(.kickedOfflineByOtherClient))
            try await Task.sleep(for: .milliseconds(200))
            for (index, session) in sessions.enumerated() where index != 7 {
                #expect(await session.statuses == [.connecting, .connected], "\(users[index])")
            }
            let files = await Set(sessions.asyncMap { await $0.databaseFile })
            #expect(files.count == users.count)
            #expect(broker.connectionCount == users.count)
        }
    }

    @Test func statusAndMessageHandlersAreCalledUntilRemoved() async throws {
        try await withBroker { broker, test in
            let session = test.session()
            let seen = Mutex<[String]>([])
            await session.addStatusHandler(identifier: "log") { change in seen.withLock { $0.append(change.status.name) } }
            await session.addMessageHandler(identifier: "inbox") { message in seen.withLock { $0.append("message \(message.text)") } }
            _ = try await session.connect()
            broker.send(.publish(Publish(topic: "im/inbox/bob", payload: TextMessage(text: "yo", cid: "c1").encoded(),
                                         qos: .atLeastOnce, packetIdentifier: 1,
                                         properties: [.userProperty(IMUserProperty.messageUID, "u1")])), on: 0)
            #expect(await eventually { broker.pubAcks.count == 1 })
            // Handlers are called from the hub's stream, as every front end hears events.
            #expect(await eventually { seen.withLock { $0 } == ["connecting", "connected", "message yo"] })
            await session.removeStatusHandler(identifier: "log")
            await session.disconnect()
            try await Task.sleep(for: .milliseconds(200))
            #expect(seen.withLock { $0 } == ["connecting", "connected", "message yo"], "a removed handler hears nothing more")
            let log = try await session.connectionLog()
            #expect(log.map(\.status) == [.connecting, .connected, .signOut])
            #expect(log.allSatisfy { $0.at > 1_000_000_000_000 })
        }
    }

    @Test func aDamagedDatabaseIsRecreatedAndSaysSo() async throws {
        try await withBroker { _, test in
            let folder = test.directory.path + "/" + TestTokens.appKey
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: folder + "/alice.sqlite"))
            let session = test.session()
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            _ = await recorder.waitForCompletion()
            #expect(recorder.events == [.databaseOpened(isRecreated: true, error: nil), .completed(userID: "alice", error: nil)])
        }
    }

    @Test func twoSessionsOfOneUserNeedTheirOwnDatabases() async throws {
        try await withBroker { _, test in
            let phone = test.session("alice") { $0.deviceID = "phone" }
            _ = try await phone.connect()
            let laptop = test.session("alice") { $0.deviceID = "laptop" }
            await #expect(throws: EngineError.self) { try await laptop.connect() }
            let own = test.session("alice") {
                $0.deviceID = "laptop"
                $0.dataDirectory = test.directory.path + "/laptop"
            }
            _ = try await own.connect()
        }
    }

    @Test func aNewTokenAfterARefusal() async throws {
        let fresh = TestTokens.token(for: "alice", issuedAt: 9)
        try await withBroker(.init(connack: { _, connect in
            connect.password == Array(fresh.utf8) ? ScriptedBroker.accept(connect) : ScriptedBroker.refuse(.badUserNameOrPassword)
        })) { broker, test in
            let session = test.session()
            await #expect(throws: EngineError.self) { try await session.connect() }
            try await session.updateToken(fresh)
            let user = try await session.connect()
            #expect(user == "alice")
            #expect(await session.statuses == [.connecting, .tokenIncorrect, .connecting, .connected])
        }
    }

    @Test func theSystemNetworkMonitorStartsAndStops() async throws {
        let directory = TemporaryDirectory()
        let engine = try SessionEngine(EngineConfiguration(
            appKey: TestTokens.appKey, servers: [ServerAddress(host: "127.0.0.1", port: 1)], dataDirectory: directory.path))
        #expect(engine.isInitialized)
        #expect(throws: EngineError.self) {
            try engine.initialize(EngineConfiguration(appKey: "x", servers: [], dataDirectory: directory.path))
        }
        await engine.shutdown()
        #expect(!engine.isInitialized)
    }

    /// Two threads initializing one engine at once: one starts the loops, the other is refused
    /// (both used to pass the check before either had stored its loops, leaking one set).
    @Test func initializingTwiceAtOnceStartsOneSetOfLoops() async throws {
        let directory = TemporaryDirectory()
        let configuration = EngineConfiguration(
            appKey: TestTokens.appKey, servers: [ServerAddress(host: "127.0.0.1", port: 1)], dataDirectory: directory.path,
            networkMonitor: .none)
        for _ in 0..<20 {
            let engine = SessionEngine()
            let started = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                if (try? engine.initialize(configuration)) != nil { started.withLock { $0 += 1 } }
            }
            #expect(started.withLock { $0 } == 1)
            await engine.shutdown()
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
