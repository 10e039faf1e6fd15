import IMStore
import Testing
@testable import IMServer

/// A checkpoint that restarts the write-ahead log keeps writers out while it waits for readers
/// of the old log: a long reader must not stall the message lane behind it.
struct SQLiteCheckpointTests {
    @Test func aLongReaderHoldsARestartBackOnlyBriefly() async throws {
        let fixture = try await LaneFixture(lockPatience: .seconds(2))
        defer { fixture.stop() }
        #expect(try await fixture.storedIDs(["before"]).count == 1)
        // A reader of the log as it is now, kept open for longer than the lane's patience.
        let reader = try Database(path: fixture.store.path)
        try reader.executeScript("BEGIN")
        _ = try reader.fetchOnce("SELECT count(*) FROM message")
        defer { try? reader.executeScript("ROLLBACK") }
        let checkpoint = Task { try await fixture.store.checkpoint(restart: true) }
        // Wait until the checkpoint holds the writers' lock (another writer finds it busy).
        let probe = try Database(path: fixture.store.path)
        var held = false
        let deadline = ContinuousClock.now + .seconds(2)
        while !held && ContinuousClock.now < deadline {
            held = probe.waitingForLocks(atMost: .zero) { db in (try? db.executeScript("BEGIN IMMEDIATE; ROLLBACK")) == nil }
            if !held { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(held, "the restarting checkpoint never held the writers' lock")
        let started = ContinuousClock.now
        let stored = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("during")], quota: nil) { done((try? $0.get()) != nil) }
        }
        #expect(stored)
        // It waited for the checkpoint's short patience, not for the reader.
        #expect(ContinuousClock.now - started < .seconds(1), "\(ContinuousClock.now - started)")
        try await checkpoint.value
    }
}
