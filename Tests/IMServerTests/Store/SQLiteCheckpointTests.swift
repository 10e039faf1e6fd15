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
        // Sends go on through the checkpoint, one every 10 ms for 1.5 s: whichever meets the
        // writers' lock it holds must wait for it briefly, not for the reader.
        let checkpoint = Task { try await fixture.store.checkpoint(restart: true) }
        var slowest = Duration.zero, failed = 0, index = 0
        let until = ContinuousClock.now + .milliseconds(1500)
        while ContinuousClock.now < until {
            let started = ContinuousClock.now, message = fixture.message("during-\(index)")
            let stored = try await fixture.onLoop { lane, done in
                lane.store([message], quota: nil) { done((try? $0.get()) != nil) }
            }
            if !stored { failed += 1 }
            slowest = max(slowest, ContinuousClock.now - started)
            index += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        try await checkpoint.value
        #expect(failed == 0)
        #expect(slowest < .seconds(1), "a send waited \(slowest)")
    }
}
