import IMEngine
import IMProtocol
import MQTT
import Testing
import TestSupport

/// Connecting against the scripted broker: callbacks, CONNECT fields, local errors.
@Suite(.timeLimit(.minutes(1)))
struct SessionConnectTests {
    @Test func successReportsTheUserIDAfterTheDatabaseOpened() async throws {
        try await withBroker { broker, test in
            let session = test.session("alice") { $0.reconnectKickEnable = true; $0.platform = .pc; $0.heartbeat = 45 }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            _ = await recorder.waitForCompletion()
            #expect(recorder.events == [.databaseOpened(isRecreated: false, error: nil), .completed(userID: "alice", error: nil)])
            #expect(await session.statuses == [.connecting, .connected])

            let connect = try #require(broker.connects.first)
            #expect(connect.clientIdentifier == "dev-alice")
            #expect(connect.userName == TestTokens.appKey)
            #expect(connect.password == Array(TestTokens.token(for: "alice").utf8))
            #expect(connect.cleanStart == false)
            #expect(connect.keepAlive == 45)
            #expect(connect.properties.sessionExpiryInterval == UInt32(604_800))
            #expect(connect.userProperty(IMUserProperty.platform) == "pc")
            #expect(connect.userProperty(IMUserProperty.kickEnable) == "1")
            #expect(connect.userProperty(IMUserProperty.reconnect) == nil)

            // The inbox subscription follows CONNACK.
            #expect(await eventually { broker.packets(on: 0).contains { if case .subscribe = $0 { true } else { false } } })
            guard case .subscribe(let subscribe)? = broker.packets(on: 0).first(where: { $0.type == .subscribe }) else { return }
            #expect(subscribe.subscriptions == [.init("im/inbox/#", options: SubscriptionOptions(qos: .atLeastOnce))])

            let log = try await session.connectionLog()
            #expect(log.map(\.status) == [.connecting, .connected])
            await session.close()
        }
    }

    @Test func asyncConnectAndTheDefaultCallbackQueue() async throws {
        try await withBroker(callbacks: .queue(.init(label: "test.callbacks"))) { broker, test in
            let session = test.session("bob")
            let recorder = CallRecorder()
            let user = try await session.connect(databaseOpened: recorder.databaseOpened)
            #expect(user == "bob")
            #expect(recorder.events == [.databaseOpened(isRecreated: false, error: nil)])
            await session.close()
        }
    }

    @Test func connectBeforeInitializingFailsWith33001() async throws {
        let engine = SessionEngine()
        let session = engine.makeSession(ConnectParameters(token: TestTokens.token(for: "alice")))
        let recorder = CallRecorder()
        await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
        let completion = await recorder.waitForCompletion()
        #expect(completion?.error == .notInitialized && completion?.error?.code?.rawValue == 33001)
        #expect(recorder.events.count == 1)
        #expect(await session.statuses.isEmpty)
    }

    @Test func connectAfterShutdownFailsWith33001() async throws {
        let broker = try ScriptedBroker()
        defer { broker.shutdown() }
        let test = try TestEngine(servers: [broker.address])
        let session = test.session()
        await test.shutdown()
        await #expect(throws: EngineError.notInitialized) { try await session.connect() }
        #expect(broker.connectionCount == 0)
    }

    static let badParameters: [(String, @Sendable (inout ConnectParameters) -> Void)] = [
        ("empty token", { $0.token = "" }),
        ("no token", { $0.token = nil }),
        ("negative heartbeat", { $0.heartbeat = -1 }),
        ("heartbeat too large", { $0.heartbeat = 70_000 }),
        ("device id with a space", { $0.deviceID = "my device" }),
        ("device id too long", { $0.deviceID = String(repeating: "d", count: 65) }),
        ("jitter above 1", { $0.jitter = 1.5 }),
    ]

    @Test(arguments: badParameters.indices) func badParametersFailWith33003(index: Int) async throws {
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        let (name, configure) = Self.badParameters[index]
        let session = test.session("alice", configure)
        let recorder = CallRecorder()
        await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
        let completion = await recorder.waitForCompletion()
        #expect(completion?.error?.code == .invalidParameter, "\(name)")
        #expect(recorder.events.count == 1, "\(name): no databaseOpened")
        #expect(broker.connectionCount == 0)
        await test.shutdown()
    }

    @Test func invalidUserIDFailsWith33002BeforeAnyNetwork() async throws {
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        for configure: (inout ConnectParameters) -> Void in [{ $0.userID = "bad user!" }] {
            let session = test.session("alice", configure)
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion()
            #expect(completion?.error?.code == .databaseError)
            guard case .databaseOpened(false, let error?)? = recorder.events.first else {
                Issue.record("databaseOpened did not report the error first: \(recorder.events)")
                continue
            }
            #expect(error.code?.rawValue == 33002)
            #expect(recorder.events.count == 2)
            await session.close()
        }
        #expect(broker.connectionCount == 0)
        await test.shutdown()
    }

    /// A given token that names no user, for a session without a user id: the token's fault
    /// (31004, as the server would say), found before the database or the network.
    @Test func aTokenNamingNoUserFailsWith31004BeforeAnyNetwork() async throws {
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        let session = test.session("alice") {
            $0.token = "not-a-token"
            $0.userID = nil
        }
        let recorder = CallRecorder()
        await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
        let completion = await recorder.waitForCompletion()
        #expect(completion?.error?.status == .tokenIncorrect)
        #expect(completion?.error?.code == .tokenIncorrect)
        #expect(recorder.events.count == 1, "no databaseOpened: \(recorder.events)")
        await session.close()
        try await Task.sleep(for: .milliseconds(100))
        #expect(broker.connectionCount == 0)
        await test.shutdown()
    }

    @Test func secondConnectIsRefusedWithoutASecondConnection() async throws {
        // Connection 0 gets no CONNACK, so the session stays connecting; later ones are accepted.
        try await withBroker(.init(connack: { index, connect in index == 0 ? nil : ScriptedBroker.accept(connect) })) { broker, test in
            let session = test.session()
            await session.connect(completion: nil)
            #expect(await eventually { broker.connects.count == 1 })
            await #expect(throws: EngineError.alreadyActive("connecting")) { try await session.connect() }
            await session.disconnect()
            #expect(try await session.connect() == "alice")
            await #expect(throws: EngineError.alreadyActive("connected")) { try await session.connect() }
            try await Task.sleep(for: .milliseconds(100))
            #expect(broker.connectionCount == 2)
            await session.close()
        }
    }

    @Test func disconnectWhileFetchingTheTokenEndsTheCallAndAllowsANewOne() async throws {
        try await withBroker { broker, test in
            let token = TestTokens.token(for: "alice")
            let session = test.session {
                $0.token = nil
                $0.tokenSource = .command("sleep 0.3; echo '\(token)'")
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            await session.disconnect()
            #expect(recorder.events == [.completed(userID: nil, error: .terminated(.signedOut))])
            await #expect(throws: EngineError.alreadyActive("connecting")) { try await session.connect() }
            #expect(await eventually { await !session.statuses.isEmpty })
            try await Task.sleep(for: .milliseconds(400))
            let user = try await session.connect()
            #expect(user == "alice")
            #expect(recorder.events.count == 1)
            #expect(broker.connects.count == 1)
            #expect(await session.statuses == [.signOut, .connecting, .connected])
        }
    }
}
