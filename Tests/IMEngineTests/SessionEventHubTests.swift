import Foundation
@testable import IMEngine
import IMProtocol
import Synchronization
import TestSupport
import Testing

/// The event hub: order, bounded buffers, constant stack, and snapshots of one moment.
@Suite(.timeLimit(.minutes(2)))
struct SessionEventHubTests {
    static func snapshot(_ id: SessionID, _ status: ConnectionStatus = .connecting, count: Int = 0) -> SessionSnapshot {
        SessionSnapshot(
            id: id, label: "s\(id.rawValue)", state: .connecting(attempt: count), status: status, lastChange: nil,
            changeCount: count, userID: nil, databaseFile: nil)
    }

    /// Runs `body` on a thread with a 256 KiB stack and waits for it.
    static func onSmallStack(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body()
                done.resume()
            }
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    @Test func aMillionEventsCrossTheHubOnA256KiBStack() async {
        let hub = SessionEventHub()
        let subscription = hub.subscribe(limit: 16)
        let id = SessionID.next()
        let delivered = Atomic<Int>(0)
        let inOrder = Atomic<Bool>(true)
        await Self.onSmallStack {
            var last: UInt64 = 0
            for index in 1...1_000_000 {
                hub.publish(.status(StatusChange(at: Int64(index), status: .connecting, code: nil, detail: "")), Self.snapshot(id, count: index))
                guard let event = subscription.nextBlocking(until: Date()) else { continue }
                if event.sequence <= last || event.droppedBefore != 0 { inOrder.store(false, ordering: .relaxed) }
                last = event.sequence
                delivered.add(1, ordering: .relaxed)
            }
        }
        let count = delivered.load(ordering: .relaxed), ordered = inOrder.load(ordering: .relaxed)
        #expect(count == 1_000_000)
        #expect(ordered)
        #expect(hub.lastSequence == 1_000_000)
        #expect(hub.snapshot(of: id)?.changeCount == 1_000_000, "the table holds the latest snapshot")
        #expect(subscription.backlog == 0)
    }

    @Test func eachEventCarriesWhenTheHubRecordedItInSequenceOrder() async throws {
        let hub = SessionEventHub()
        let subscription = hub.subscribe()
        let id = SessionID.next()
        let before = ContinuousClock.now
        hub.publish(.sendReport(SendReport(cid: "c1", reasonCode: .success)), Self.snapshot(id))
        try await Task.sleep(for: .milliseconds(20))
        hub.publish(.sendReport(SendReport(cid: "c2", reasonCode: .success)), Self.snapshot(id))
        let after = ContinuousClock.now
        let first = try #require(await subscription.next()), second = try #require(await subscription.next())
        #expect(before <= first.at && first.at <= second.at && second.at <= after)
        #expect(second.at - first.at >= .milliseconds(20), "the time of recording, not of reading")
    }

    @Test func aSlowSubscriberLosesTheOldestAndIsToldHowMany() async {
        let hub = SessionEventHub()
        let slow = hub.subscribe(limit: 100)
        let fast = hub.subscribe(limit: 10_000)
        let id = SessionID.next()
        for index in 1...1_000 {
            hub.publish(.sendReport(SendReport(cid: "c\(index)", reasonCode: .success)), Self.snapshot(id, count: index))
        }
        #expect(slow.backlog == 100 && fast.backlog == 1_000, "the publisher never waited; the slow buffer stayed bounded")
        let first = await slow.next()
        #expect(first?.sequence == 901 && first?.droppedBefore == 900)
        var sequences: [UInt64] = []
        while slow.backlog > 0, let event = await slow.next() { sequences.append(event.sequence) }
        #expect(sequences == Array(902...1_000))
        #expect(await fast.next()?.droppedBefore == 0)
    }

    @Test func cancellingWakesReadersAndStopsDelivery() async {
        let hub = SessionEventHub()
        let subscription = hub.subscribe()
        let reader = Task { await subscription.next() }
        try? await Task.sleep(for: .milliseconds(50))
        subscription.cancel()
        #expect(await reader.value == nil)
        hub.publish(.closed, Self.snapshot(SessionID.next()))
        #expect(subscription.backlog == 0)
    }

    @Test func closingASessionTakesItOutOfTheTable() {
        let hub = SessionEventHub()
        let id = SessionID.next()
        hub.publish(.status(StatusChange(at: 1, status: .connected, code: nil, detail: "")), Self.snapshot(id, .connected))
        #expect(hub.snapshots[id]?.status == .connected)
        hub.publish(.closed, Self.snapshot(id, .connected))
        #expect(hub.snapshots[id] == nil)
    }

    /// A connected status always comes with its server; the network's pause with none.
    static func expectOneMoment(_ snapshot: SessionSnapshot, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        switch snapshot.status {
        case .connected:
            #expect(snapshot.server != nil && snapshot.lastChange?.status == .connected, sourceLocation: sourceLocation)
        case .networkUnavailable:
            #expect(snapshot.state == .paused && snapshot.server == nil, sourceLocation: sourceLocation)
        default:
            #expect(snapshot.server == nil, "\(snapshot)", sourceLocation: sourceLocation)
        }
    }

    /// A snapshot is one moment: a connected status always comes with its server, and the
    /// network's pause with no server, however fast the session changes while it is read.
    @Test func snapshotsNeverMixTwoMoments() async throws {
        try await withBroker { _, test in
            let session = test.session()
            _ = try await session.connect()
            let hub = test.engine.hub
            let events = hub.subscribe(limit: 10_000)
            let done = Atomic<Bool>(false)
            let flips = Task {
                for index in 0..<200 { await session.simulateNetwork(index % 2 == 0 ? .down : .up) }
                done.store(true, ordering: .relaxed)
            }
            // Read the table while the session changes under it.
            while !done.load(ordering: .relaxed) {
                if let snapshot = hub.snapshot(of: session.id) { Self.expectOneMoment(snapshot) }
                let direct = await session.snapshot()
                Self.expectOneMoment(direct)
                await Task.yield()
            }
            await flips.value
            // And every snapshot the session published, in order.
            var statuses: [ConnectionStatus] = []
            while events.backlog > 0, let event = await events.next() {
                guard event.session == session.id else { continue }
                Self.expectOneMoment(event.snapshot)
                if case .status(let change) = event.kind { statuses.append(change.status) }
            }
            #expect(statuses.filter { $0 == .networkUnavailable }.count == 100, "\(statuses)")
            #expect(statuses.contains(.connecting))
            await session.close()
        }
    }
    /// A reader that takes the element it wanted and drops the stream (as the shell's `send`
    /// does with its PUBACK) ends the stream's subscription: left open, it was fed every later
    /// event of the session, up to 100,000 each, one more at every send.
    @Test func aStreamDroppedAfterTheElementItWantedEndsItsSubscription() async throws {
        try await withBroker { _, test in
            let session = test.session()
            _ = try await session.connect()
            let before = test.engine.hub.subscriptionCount
            for index in 0..<20 {
                let reports = await session.sendReports()
                let cid = try await session.send(text: "m\(index)", to: "bob").cid
                for await report in reports where report.cid == cid { break }
            }
            #expect(await eventually { test.engine.hub.subscriptionCount == before },
                    "\(test.engine.hub.subscriptionCount - before) subscriptions left open")
            await session.close()
        }
    }
}
