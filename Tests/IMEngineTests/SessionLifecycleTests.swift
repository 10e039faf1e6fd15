import Foundation
import IMEngine
import IMProtocol
import MQTT
import Synchronization
import Testing
import TestSupport

/// A network monitor the test drives.
final class ManualNetworkMonitor: NetworkMonitoring {
    private let continuations = Mutex<[AsyncStream<NetworkEvent>.Continuation]>([])

    func events() -> AsyncStream<NetworkEvent> {
        let (stream, continuation) = AsyncStream<NetworkEvent>.makeStream()
        continuations.withLock { $0.append(continuation) }
        return stream
    }

    func emit(_ event: NetworkEvent) {
        for continuation in continuations.withLock({ $0 }) { continuation.yield(event) }
    }
}

/// Heartbeat, disconnect, network changes and background, against the scripted broker.
@Suite(.timeLimit(.minutes(1)))
struct SessionLifecycleTests {
    @Test func heartbeatLossIsDetectedWithinTwiceTheHeartbeat() async throws {
        try await withBroker { broker, test in
            // A heartbeat of 2 s: the session finds a silent peer within 1.5 of them, which
            // leaves its timers 1 s of lateness under the bound (with 1 s, a run on a busy CI
            // machine took 2,124 ms against 2,000).
            let session = test.session { $0.heartbeat = 2 }
            _ = try await session.connect()
            // Answered pings keep the connection up.
            #expect(await eventually(within: .seconds(5)) {
                broker.packets(on: 0).contains(.pingreq)
            })
            #expect(await session.statuses == [.connecting, .connected])

            broker.silence(0)
            let silencedAt = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(await eventually(within: .seconds(5)) { await session.statuses.count >= 3 })
            // The session's own time of the loss, not when this task saw it: on a busy machine
            // the polling alone took a run past the bound.
            // A loss never reported fails here rather than trapping on a missing entry.
            let lost = try #require(await session.statusHistory.dropFirst(2).first)
            #expect(lost.at - silencedAt < 4_000, "heartbeat loss took \(lost.at - silencedAt) ms")
            #expect(await session.statuses.prefix(3) == [.connecting, .connected, .connecting])
            #expect(lost.detail.contains("PINGREQ"))

            #expect(await eventually { await session.statuses.last == .connected && broker.connects.count == 2 })
            #expect(broker.connects[1].userProperty(IMUserProperty.reconnect) == "1")
            await session.close()
        }
    }

    @Test func aClosedSessionStaysClosed() async throws {
        try await withBroker { _, test in
            let session = test.session()
            _ = try await session.connect()
            await session.close()
            let statuses = await session.statuses
            await session.disconnect()
            #expect(await session.statuses == statuses, "a disconnect after close reported a status")
            #expect(await session.snapshot().state == .closed)
            await #expect(throws: EngineError.self) { _ = try await session.connect() }
        }
    }

    @Test func closingWhileTheDatabaseOpensLeavesTheFileFree() async throws {
        try await withBroker { _, test in
            // Closing right after connecting lands, some of the times, while the file opens;
            // each time the user's next session must get the file.
            for _ in 0..<20 {
                let session = test.session("dora")
                let connecting = Task { try? await session.connect() }
                await Task.yield()
                await session.close()
                _ = await connecting.value
            }
            // The last one's file may still be opening: it is free once that ends.
            var connected = false
            let deadline = ContinuousClock.now + .seconds(5)
            while !connected && ContinuousClock.now < deadline {
                let next = test.session("dora")
                connected = (try? await next.connect()) != nil
                await next.close()
                if !connected { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(connected, "the user's file stayed in use after its sessions closed")
        }
    }

    @Test(arguments: [false, true]) func disconnectSignsOutAndStops(disablePush: Bool) async throws {
        try await withBroker { broker, test in
            let session = test.session()
            _ = try await session.connect()
            await session.disconnect(disablePush: disablePush)
            #expect(await session.statuses == [.connecting, .connected, .signOut])
            #expect(await eventually { broker.isClosed(0) })
            guard case .disconnect(let disconnect)? = broker.packets(on: 0).last else {
                Issue.record("no DISCONNECT before the close: \(broker.packets(on: 0).map(\.type))")
                return
            }
            #expect(disconnect.reasonCode == .normalDisconnection)
            // Push off travels as im-push; the session is kept, so a broker keeps the messages.
            #expect(disconnect.properties.sessionExpiryInterval == nil)
            #expect(disconnect.properties.userProperty(IMUserProperty.push) == (disablePush ? IMUserProperty.pushOff : nil))
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.connects.count == 1)
            #expect(try await session.connectionLog().last?.status == .signOut)
            await session.close()
        }
    }

    /// Runs `body` with an engine of one loop on a scripted broker, whose network is what the
    /// monitor says, and shuts both down afterwards.
    private func withMonitoredEngine(
        _ body: @escaping @Sendable (ScriptedBroker, ManualNetworkMonitor, SessionEngine) async throws -> Void
    ) async throws {
        let broker = try ScriptedBroker()
        defer { broker.shutdown() }
        let monitor = ManualNetworkMonitor()
        let directory = TemporaryDirectory()
        let engine = try SessionEngine(EngineConfiguration(
            appKey: TestTokens.appKey, servers: [broker.address], dataDirectory: directory.path,
            callbacks: .immediate, networkMonitor: .custom(monitor), eventLoopThreads: 1))
        try await withTimeout { try await body(broker, monitor, engine) }
        await engine.shutdown()
    }

    @Test func aSessionMadeDuringAnOutageWaitsForTheNetwork() async throws {
        try await withMonitoredEngine { broker, monitor, engine in
            let first = engine.makeSession(ConnectParameters(token: TestTokens.token(for: "alice")))
            _ = try await first.connect()
            monitor.emit(.down)
            #expect(await eventually { await first.statuses.last == .networkUnavailable })
            let second = engine.makeSession(ConnectParameters(token: TestTokens.token(for: "bob")))
            await second.connect(completion: nil)
            #expect(await eventually { await second.statuses.last == .networkUnavailable })
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.connects.count == 1, "a session made during the outage tried to connect")
            monitor.emit(.up)
            #expect(await eventually {
                let (one, two) = (await first.statuses.last, await second.statuses.last)
                return one == .connected && two == .connected
            })
            #expect(await second.statuses == [.networkUnavailable, .connecting, .connected])
            await first.close()
            await second.close()
        }
    }

    @Test func simulatedNetworkDownPausesAndUpReconnectsAtOnce() async throws {
        try await withMonitoredEngine { broker, monitor, engine in
            let session = engine.makeSession(ConnectParameters(token: TestTokens.token(for: "alice")))
            _ = try await session.connect()
            await session.simulateNetwork(.down)
            #expect(await session.statuses == [.connecting, .connected, .networkUnavailable])
            #expect(await eventually { broker.isClosed(0) })
            // The real monitor does not end a simulated outage.
            monitor.emit(.up)
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.connects.count == 1)

            await session.simulateNetwork(.up)
            #expect(await eventually { await session.statuses.last == .connected })
            #expect(broker.connects.count == 2)
            #expect(broker.connects[1].userProperty(IMUserProperty.reconnect) == "1")

            // Once the simulation is over, the engine's monitor reaches the session.
            monitor.emit(.down)
            #expect(await eventually { await session.statuses.last == .networkUnavailable })
            monitor.emit(.up)
            #expect(await eventually { await session.statuses.last == .connected })
            #expect(broker.connects.count == 3)
            await session.close()
        }
    }

    @Test func backgroundGraceSuspendsAndForegroundReconnects() async throws {
        let broker = try ScriptedBroker()
        let clock = VirtualClock()
        let test = try TestEngine(servers: [broker.address], clock: clock)
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session { $0.backgroundGrace = .seconds(120) }
            _ = try await session.connect()
            await session.enterBackground()
            clock.advance(by: .seconds(119))
            try await Task.sleep(for: .milliseconds(50))
            #expect(await session.statuses.last == .connected)
            clock.advance(by: .seconds(1))
            #expect(await eventually { await session.statuses.last == .suspend })
            #expect(await eventually { broker.isClosed(0) })

            await session.enterForeground()
            #expect(await eventually { await session.statuses.last == .connected })
            #expect(broker.connects.count == 2)
            await session.close()
        }
        await test.shutdown()
    }

    @Test func firstConnectionTimeoutEndsWith34006InVirtualTime() async throws {
        let broker = try ScriptedBroker(.init(connack: { _, _ in ScriptedBroker.refuse(.serverBusy) }))
        let clock = VirtualClock()
        let test = try TestEngine(servers: [broker.address], clock: clock)
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session { $0.timeout = .seconds(5) }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            // Attempts at 0, 0.05, 0.3, 0.8, 1.8 and 3.8 s; the next would be at 7.8 s, after the deadline.
            var attemptTimes: [Duration] = []
            for attempt in 1...6 {
                #expect(await eventually { broker.connects.count == attempt && clock.sleeperCount == 2 })
                attemptTimes.append(clock.now)
                clock.advance(to: clock.nextDeadline ?? clock.now)
            }
            let completion = await recorder.waitForCompletion()
            #expect(attemptTimes == [.zero, .milliseconds(50), .milliseconds(300), .milliseconds(800),
                                     .milliseconds(1800), .milliseconds(3800)])
            #expect(clock.now == .seconds(5))
            #expect(completion?.error == .terminated(.timedOut))
            #expect(completion?.error?.code?.rawValue == 34006)
            #expect(await session.statuses == [.connecting, .timeout])
            clock.advance(by: .seconds(600))
            try await Task.sleep(for: .milliseconds(100))
            #expect(broker.connects.count == 6)
            await session.close()
        }
        await test.shutdown()
    }
}
