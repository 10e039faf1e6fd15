import Testing
import TestSupport
@testable import IMServer

/// What the lane keeps between calls and turns (`WriterMemory`: device rows, usage, the next
/// id, messages queued once), forgotten when another connection commits or a turn rolls back;
/// and each sender's usage, changed once per turn by what its stores and acknowledgements add up to.
@Suite struct SQLiteMessageLaneWriterTests {
    @Test func aDeviceAnotherConnectionRegistersGetsTheNextMessage() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        _ = try await fixture.storedIDs(["before"])
        // The store's own connection, as a login does, between two turns of the lane.
        _ = try await fixture.store.registerDevices(
            [DeviceRegistration(appKey: "app", userID: "bob", deviceID: "tablet", platform: .pc)], now: 2)
        let deliveries = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("after")], quota: nil) { done((try? $0.get())?.first?.deliveries.map(\.deviceID) ?? []) }
        }
        #expect(deliveries.sorted() == ["phone", "tablet"])
        #expect(try await fixture.store.pendingCount(appKey: "app", userID: "bob", deviceID: "tablet") == 1)
        #expect(try await fixture.pendingCount() == 2)
    }

    @Test func aPlaceholderOfARolledBackTurnIsNotTakenForStored() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        try fixture.refuseMessages(withText: "boom")
        // A commit of the lane's own first, so that what it remembers is not forgotten anyway.
        _ = try await fixture.storedIDs(["warm"])
        // Carol has no device: her message makes a placeholder, which the failing call's
        // rollback takes away before her call runs again alone.
        let toCarol = NewMessage(appKey: "app", from: "alice", to: ["carol"], cid: "c1", text: "hi", sentAt: 1_000)
        let outcomes = try await fixture.storeInOneTurn([("carol", toCarol), ("boom", fixture.message("boom", text: "boom"))])
        #expect(outcomes["carol"] == "stored")
        #expect(outcomes["boom"]?.contains("boom refused") == true)
        let placeholder = SQLiteServerStore.placeholderDeviceID
        #expect(try await fixture.store.pendingCount(appKey: "app", userID: "carol", deviceID: placeholder) == 1)
        // Her first device takes over the placeholder's queue.
        _ = try await fixture.store.registerDevices(
            [DeviceRegistration(appKey: "app", userID: "carol", deviceID: "laptop", platform: .pc)], now: 2)
        #expect(try await fixture.store.pendingCount(appKey: "app", userID: "carol", deviceID: "laptop") == 1)
    }

    @Test func aTurnChangesASendersUsageByWhatItsCallsAddUpTo() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let device = fixture.device
        let first = try await fixture.storedIDs(["m1"])
        #expect(try await fixture.store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 1, bytes: 5))
        // One turn: m1 acknowledged, m2 (same size) and m3 (longer) stored; the quota of m3
        // counts m1 as gone and m2 as there.
        let quota = QueueQuota(messages: 2, bytes: 100)
        let stored = try await fixture.onLoop { lane, done in
            let before = lane.commits
            var results: [Bool] = []
            lane.acknowledge(device, messageIDs: first) { _ in }
            for (cid, text) in [("m2", "hello"), ("m3", "hello, bob")] {
                lane.store([fixture.message(cid, text: text)], quota: quota) { result in
                    results.append((try? result.get())?.first.map { $0.overQuota == nil } ?? false)
                    if results.count == 2 { done((results, lane.commits - before)) }
                }
            }
        }
        #expect(stored.0 == [true, true])
        #expect(stored.1 == 1)
        #expect(try await fixture.store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 2, bytes: 15))
        // Netted to nothing: m2 acknowledged and m4 (same size) stored leave the row as it was.
        let m2 = try #require(try await fixture.store.pending(appKey: "app", userID: "bob", deviceID: "phone", after: 0, limit: 10)
            .first { $0.cid == "m2" })
        let netted = try await fixture.onLoop { lane, done in
            let before = lane.commits
            lane.acknowledge(device, messageIDs: [m2.messageID]) { _ in }
            lane.store([fixture.message("m4", text: "howdy")], quota: quota) { result in
                done(((try? result.get())?.first.map { $0.overQuota == nil } ?? false, lane.commits - before))
            }
        }
        #expect(netted.0)
        #expect(netted.1 == 1)
        #expect(try await fixture.store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 2, bytes: 15))
        #expect(try await fixture.pendingCount() == 2)
    }

    @Test func aSendersUsageChangedByAnotherConnectionCountsForTheQuota() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let quota = QueueQuota(messages: 2, bytes: 1_000)
        let first = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("m1")], quota: quota) { done((try? $0.get())?.first.map { $0.overQuota == nil } ?? false) }
        }
        #expect(first)
        // The store's own connection (as the server API does) stores alice's second message.
        _ = try await fixture.store.storeMessages([fixture.message("m2")], quota: nil)
        let third = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("m3")], quota: quota) { done((try? $0.get())?.first?.overQuota) }
        }
        #expect(third == QueueUsage(messages: 2, bytes: 10))
        #expect(try await fixture.pendingCount() == 2)
    }

    @Test func aMessageQueuedForTwoDevicesStopsCountingAtTheLastAcknowledgement() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        _ = try await fixture.store.registerDevices(
            [DeviceRegistration(appKey: "app", userID: "bob", deviceID: "tablet", platform: .pc)], now: 2)
        let ids = try await fixture.storedIDs(["m1", "m2"])
        let tablet = DeviceKey(appKey: "app", userID: "bob", deviceID: "tablet")
        for (device, expected) in [(fixture.device, 2), (tablet, 0)] {
            let removed = try await fixture.onLoop { lane, done in
                lane.acknowledge(device, messageIDs: ids) { done((try? $0.get()) ?? -1) }
            }
            #expect(removed == 2)
            #expect(try await fixture.store.queuedUsage(appKey: "app", userID: "alice").messages == expected)
        }
    }
}
