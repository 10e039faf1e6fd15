import Foundation
import IMEngine
import IMProtocol
import Testing
import TestSupport

/// The engine against a stock mosquitto that goes away: ended (SIGTERM, SIGKILL) and started
/// again on its port, or frozen (SIGSTOP) and thawed. The session comes back by itself on the
/// backoff schedule, and messages sent around the restart arrive once each, both ways.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct MosquittoRestartTests {
    typealias Setup = MosquittoInteropTests.Setup

    /// A paho client on the broker as alice's peer: it reads what alice sends (`im/send/bob`,
    /// a persistent session that queues while it is away) and publishes to her inbox as bob.
    struct Peer {
        let port: UInt16
        let token = TestTokens.token(for: "alice")

        func collect(count: Int, wait: Double) async throws -> [String] {
            try await PahoPeer.run("receive", port: port, appKey: TestTokens.appKey, token: token, device: "collector",
                                   ["--filter", "im/send/bob", "--count", String(count), "--wait", String(wait)])
        }

        func publish(_ text: String) async throws {
            let payload = #"{"type":"text","text":"\#(text)","cid":"\#(text)","from":"bob"}"#
            let lines = try await PahoPeer.run("send", port: port, appKey: TestTokens.appKey, token: token, device: "bob-peer",
                                               ["--topic", "im/inbox/bob", "--payload", payload])
            guard lines == ["connack 00", "sent"] else { throw TestFailure("publishing \(text): \(lines)") }
        }
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func theSessionReturnsOnTheBackoffScheduleAndNothingIsLostOrDoubled(_ signal: Int32) async throws {
        let setup = try Setup(persistent: true)
        defer { setup.broker.stop() }
        try await withTimeout(.seconds(60)) {
            let peer = Peer(port: setup.broker.port)
            // The collector's persistent session exists before anything is published to it
            // (what it printed is in the message, should a loaded machine slow it).
            let subscribed = try await peer.collect(count: 0, wait: 0.2)
            #expect(subscribed == ["connack 00", "suback 01"], "the collector printed \(subscribed)")
            let (session, engine, error) = try await setup.connect()
            #expect(error == nil)
            let events = engine.hub.subscribe()
            _ = try await session.send(text: "before", to: "bob")
            try await peer.publish("in-before")
            #expect(await eventually { (try? await session.pendingOutgoing().isEmpty) == true })
            #expect(await eventually { (try? await session.history(peer: "bob").count) == 2 })

            setup.broker.end(with: signal)
            #expect(await eventually { await session.status == .connecting })
            _ = try await session.send(text: "during", to: "bob")
            try await Task.sleep(for: .seconds(1))
            try setup.broker.restart()
            let returned = await eventually(within: .seconds(10)) { await session.connectedCount == 2 }
            let statuses = await session.statusHistory
            #expect(returned, "\(statuses)")
            try await peer.publish("in-after")
            _ = try await session.send(text: "after", to: "bob")
            #expect(await eventually { (try? await session.pendingOutgoing().isEmpty) == true })

            // Alice's three messages reached bob's side once each, in order, and nothing more comes.
            // (Queued messages may come before the SUBACK of the new subscription.)
            let collected = try await peer.collect(count: 3, wait: 5)
            #expect(collected.filter { $0.hasPrefix("message") } == ["before", "during", "after"].map { "message 1 0 im/send/bob \($0)" },
                    "\(collected)")
            let more = try await peer.collect(count: 1, wait: 0.5)
            #expect(more.filter { $0.hasPrefix("message") }.isEmpty, "\(more)")
            // Bob's two messages are in alice's database once each.
            #expect(await eventually { (try? await session.history(peer: "bob").filter { $0.direction == .incoming }.count) == 2 })
            let incoming = try await session.history(peer: "bob").filter { $0.direction == .incoming }.map(\.text)
            #expect(incoming.sorted() == ["in-after", "in-before"])

            // The waits between attempts were the schedule's, from its start.
            let delays = Self.retryDelays(events)
            #expect(!delays.isEmpty && delays == Array(BackoffSchedule().delays.prefix(delays.count)), "\(delays)")
            let history = await session.statusHistory
            #expect(history.allSatisfy { $0.code == nil }, "\(history)")
            await engine.shutdown()
        }
    }

    /// mosquitto closes every link without DISCONNECT when it stops, as it does on a takeover.
    /// A broker restarted three times, each soon after the login, is not taken for another
    /// device: between its closes the attempts fail (nothing listens), which a takeover never does.
    @Test func aBrokerRestartedThreeTimesSoonAfterLoginIsNotTakenForATakeover() async throws {
        let setup = try Setup()
        defer { setup.broker.stop() }
        try await withTimeout(.seconds(60)) {
            let (session, engine, error) = try await setup.connect()
            #expect(error == nil)
            for restart in 1...3 {
                setup.broker.end(with: SIGKILL)
                try await Task.sleep(for: .milliseconds(400))
                try setup.broker.restart()
                let back = await eventually(within: .seconds(10)) { await session.connectedCount == restart + 1 }
                let statuses = await session.statusHistory
                #expect(back, "restart \(restart): \(statuses)")
            }
            let statuses = await session.statusHistory
            #expect(!statuses.contains { $0.status == .kickedOfflineByOtherClient }, "\(statuses)")
            await engine.shutdown()
        }
    }

    /// A frozen broker keeps the TCP connection open and answers nothing: the heartbeat finds
    /// it dead within 1.5 × Keep Alive, and once it is thawed the session is back. The Keep
    /// Alive is ours (4 s), or the broker's Server Keep Alive (`max_keepalive 10`, its least)
    /// in place of our 30 s.
    @Test(arguments: [(4, "", 4), (30, "max_keepalive 10", 10)])
    func aFrozenBrokerIsFoundDeadWithinOneAndAHalfKeepAlivesAndTheSessionReturnsWhenItThaws(
        _ heartbeat: Int, _ settings: String, _ keepAlive: Int
    ) async throws {
        let setup = try Setup(settings: settings)
        defer {
            setup.broker.signal(SIGCONT)
            setup.broker.stop()
        }
        try await withTimeout(.seconds(60)) {
            let (session, engine, error) = try await setup.connect(heartbeat: heartbeat)
            #expect(error == nil)
            // The last packet each way (the SUBACK) is behind us: the heartbeat's clock runs from here.
            try await Task.sleep(for: .milliseconds(200))
            let frozenAt = Int64(Date().timeIntervalSince1970 * 1000)
            setup.broker.signal(SIGSTOP)
            #expect(await eventually(within: .seconds(keepAlive * 2)) { await session.status == .connecting })
            let lost = try #require(await session.statusHistory.last)
            // A second for late timers, still under the 2 × Keep Alive of a heartbeat that missed one.
            #expect(lost.at - frozenAt <= Int64(keepAlive) * 1500 + 1_000, "\(lost)")
            #expect(lost.detail.contains("did not answer PINGREQ"), "\(lost)")
            setup.broker.signal(SIGCONT)
            let thawed = await eventually(within: .seconds(15)) { await session.status == .connected }
            let statuses = await session.statusHistory
            #expect(thawed, "\(statuses)")
            await engine.shutdown()
        }
    }

    /// The delays of the retries announced so far.
    static func retryDelays(_ events: SessionEventSubscription) -> [Duration] {
        var delays: [Duration] = []
        while events.backlog > 0, let event = events.nextBlocking(until: Date()) {
            if case .retryScheduled(_, let delay, _) = event.kind { delays.append(delay) }
        }
        return delays
    }
}
