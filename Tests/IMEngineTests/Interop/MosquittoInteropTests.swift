import Foundation
import IMEngine
import IMProtocol
import Testing
import TestSupport

/// The engine against a stock plaintext mosquitto (password file, ACL file, broker settings):
/// the interop faults of issue 16 that show on the imsh side.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct MosquittoInteropTests {
    /// A broker for alice (user name = app key, password = her token) and a session against it.
    struct Setup {
        let directory = TemporaryDirectory()
        let broker: StockMosquitto

        init(refuseSubscriptions: Bool = false, persistent: Bool = false, settings: String = "") throws {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            broker = try StockMosquitto(
                directory: directory.path, users: [TestTokens.appKey: TestTokens.token(for: "alice")],
                refuseSubscriptions: refuseSubscriptions, persistent: persistent, settings: settings)
        }

        /// A session of alice on `phone-alice`, its data in `data` (another for a second device).
        func connect(data: String = "data", heartbeat: Int = 30) async throws -> (Session, SessionEngine, EngineError?) {
            var configuration = EngineConfiguration(
                appKey: TestTokens.appKey, servers: [ServerAddress(host: "127.0.0.1", port: broker.port)],
                dataDirectory: directory.path + "/" + data, callbacks: .immediate, networkMonitor: .none,
                eventLoopThreads: 1, attemptTimeout: .seconds(3))
            // A stock broker closes a taken-over connection silently: read that as a takeover.
            configuration.takeoverLimit = TakeoverSuspicion.defaultLimit
            let engine = try SessionEngine(configuration)
            let session = engine.makeSession(
                ConnectParameters(token: TestTokens.token(for: "alice"), deviceID: "phone-alice", heartbeat: heartbeat))
            return (session, engine, await session.connectionError())
        }
    }

    /// Runs `body` against a fresh broker, stopped afterwards whatever happens.
    func withBroker(refuseSubscriptions: Bool = false, settings: String = "", _ body: @escaping @Sendable (Setup) async throws -> Void) async throws {
        let setup = try Setup(refuseSubscriptions: refuseSubscriptions, settings: settings)
        let result = await Result { try await withTimeout(.seconds(30)) { try await body(setup) } }
        setup.broker.stop()
        try result.get()
    }

    /// Fault 5: a message over the broker's Maximum Packet Size is not sent, and the report says
    /// so with both sizes instead of blaming the server.
    @Test func aMessageOverTheBrokersMaximumPacketSizeIsReportedAsNotSentWithBothSizes() async throws {
        try await withBroker(settings: "max_packet_size 1000") { setup in
            let (session, engine, error) = try await setup.connect()
            #expect(error == nil)
            let reports = await session.sendReports()
            let message = try await session.send(text: String(repeating: "x", count: 2000), to: "bob")
            var found: SendReport?
            for await report in reports where report.cid == message.cid { found = report; break }
            #expect(found?.reasonCode == .packetTooLarge)
            let failure = found?.failure ?? ""
            #expect(failure.contains("not sent"), "\(failure)")
            #expect(failure.contains("over the server's Maximum Packet Size of 1000 bytes"), "\(failure)")
            #expect(failure.contains("\(2000 + 100)") == false && failure.contains(" bytes, over"), "\(failure)")
            #expect(!failure.contains("server refused"), "\(failure)")
            #expect(setup.broker.output.contains("PUBLISH") == false, "the message went out")
            await engine.shutdown()
        }
    }

    /// Fault 1: a broker that refuses im/inbox/# (SUBACK 0x87) is reported as the current status
    /// again, stays what `status` shows, and the subscription is asked again on the next connection.
    @Test func aRefusedInboxSubscriptionIsReportedAndAskedAgainOnTheNextConnection() async throws {
        try await withBroker(refuseSubscriptions: true) { setup in
            let (session, engine, error) = try await setup.connect()
            #expect(error == nil)
            let refused = await eventually {
                await session.statusHistory.last?.detail.contains("inbox subscription refused: 0x87 not authorized") == true
            }
            let before = await session.statusHistory.map(\.detail)
            #expect(refused, "\(before)")
            #expect(await session.status == .connected)
            // mosquitto disconnects a client whose roles change (0x98, which stops the session):
            // the next connection is the next connect call.
            try setup.broker.allowSubscriptions(of: TestTokens.appKey)
            #expect(await eventually { await session.status != .connected })
            _ = try await session.connect()
            let granted = await eventually(within: .seconds(10)) {
                await session.statusHistory.last?.detail.contains("inbox subscription granted: 0x01") == true
            }
            let details = await session.statusHistory.map(\.detail)
            // The broker kept the session: without the refusal remembered, no SUBSCRIBE would go.
            #expect(details.contains { $0.contains("session resumed") }, "\(details)")
            #expect(granted, "\(details)")
            await engine.shutdown()
        }
    }

    /// Fault 3: mosquitto closes a taken-over link without DISCONNECT; two devices with one
    /// client id stop taking each other over: one ends kicked (6, 31010), saying why.
    @Test func twoDevicesWithOneClientIDEndWithAKickInsteadOfFlapping() async throws {
        try await withBroker { setup in
            let (first, firstEngine, error) = try await setup.connect()
            #expect(error == nil)
            let (second, secondEngine, _) = try await setup.connect(data: "data2")
            let kicked = await eventually(within: .seconds(20)) {
                let statuses = [await first.status, await second.status]
                return statuses.contains(.kickedOfflineByOtherClient) && statuses.contains(.connected)
            }
            #expect(kicked)
            let loser = await first.status == .kickedOfflineByOtherClient ? first : second
            let last = await loser.statusHistory.last
            #expect(last?.code == .kickedByOtherClient)
            #expect(last?.detail.contains("takeover suspected") == true, "\(String(describing: last))")
            await firstEngine.shutdown()
            await secondEngine.shutdown()
        }
    }

    /// Forty messages queued while the broker was away all go out once it is back, to a broker
    /// that announces a small Receive Maximum (`max_inflight_messages 5`): none fails, the
    /// link stays up.
    @Test func messagesQueuedWhileAwayAreAllSentToABrokerWithASmallReceiveMaximum() async throws {
        try await withBroker(settings: "max_inflight_messages 5") { setup in
            let (session, engine, error) = try await setup.connect()
            #expect(error == nil)
            setup.broker.end(with: SIGKILL)
            #expect(await eventually { await session.status == .connecting })
            for number in 0..<40 { _ = try await session.send(text: "queued \(number)", to: "bob") }
            try setup.broker.restart()
            let drained = await eventually(within: .seconds(15)) { (try? await session.pendingOutgoing().isEmpty) == true }
            let history = await session.statusHistory
            #expect(drained, "\(history)")
            #expect(history.filter { $0.status == .connected }.count == 2, "\(history)")
            let states = try await session.history(peer: "bob", limit: 100).map(\.state)
            #expect(states.count == 40 && states.allSatisfy { $0 == .sent }, "\(states.map { "\($0)" }.joined(separator: " "))")
            await engine.shutdown()
        }
    }
}
