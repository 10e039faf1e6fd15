import Foundation
import IMStore
import IMTransport
import Testing
import TestSupport
@testable import IMServer

/// The SQLite message lane: a turn's calls in one transaction on the loop, answered after the
/// commit; a failing call alone fails; a locked file is waited for from a timer, not by
/// blocking the loop; acknowledgements ride with the next commit; checkpoints happen elsewhere.
@Suite struct SQLiteMessageLaneTests {
    @Test func callsOfOneTurnShareOneCommitAndAreInTheFileWhenAnswered() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let results = try await fixture.onLoop { lane, done in
            var answers: [Result<[StoredMessageResult], any Error>] = []
            for index in 0..<10 {
                lane.store([fixture.message("c\(index)")], quota: nil) { result in
                    answers.append(result)
                    if answers.count == 10 { done((answers, lane.commits, lane.committedCalls)) }
                }
            }
        }
        #expect(results.0.allSatisfy { (try? $0.get())?.first?.deliveries.count == 1 })
        #expect(results.1 == 1)
        #expect(results.2 == 10)
        // Another connection sees them: answered means committed.
        #expect(try await fixture.pendingCount() == 10)
    }

    @Test func aFailingCallFailsAloneAndItsTurnMatesCommit() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        try fixture.refuseMessages(withText: "boom")
        let outcomes = try await fixture.storeInOneTurn(["first", "boom", "last"].map { ($0, fixture.message($0, text: $0)) })
        #expect(outcomes["first"] == "stored")
        #expect(outcomes["boom"]?.contains("boom refused") == true, "\(outcomes)")
        #expect(outcomes["last"] == "stored")
        #expect(try await fixture.pendingCount() == 2)
    }

    @Test func aLockedFileIsWaitedForWithoutBlockingTheLoop() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let holder = try Database(path: fixture.store.path)
        try holder.executeScript("BEGIN IMMEDIATE")
        let started = ContinuousClock.now
        let release = Task.detached {
            try await Task.sleep(for: .milliseconds(300))
            try holder.executeScript("COMMIT")
        }
        let (ticks, stored, waited) = try await fixture.onLoop { lane, done in
            var ticks = 0
            func tick() {
                ticks += 1
                fixture.loop.scheduleTimer(after: .milliseconds(10), tick)
            }
            tick()
            lane.store([fixture.message("locked")], quota: nil) { result in
                done((ticks, (try? result.get()) != nil, ContinuousClock.now - started))
            }
        }
        try await release.value
        #expect(stored)
        // Answered only once the other connection let go.
        #expect(waited >= .milliseconds(290))
        // The loop went on with its timers while the lane waited.
        #expect(ticks >= 10)
    }

    @Test func aFileLockedPastThePatienceFailsTheCalls() async throws {
        let fixture = try await LaneFixture(lockPatience: .milliseconds(100))
        defer { fixture.stop() }
        let holder = try Database(path: fixture.store.path)
        try holder.executeScript("BEGIN IMMEDIATE")
        defer { try? holder.executeScript("ROLLBACK") }
        let failure = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("never")], quota: nil) { result in
                switch result {
                case .failure(let error as ServerStoreError): done(error)
                case .failure(let error): done(.failed(operation: "?", path: "?", reason: "not a ServerStoreError: \(error)"))
                case .success: done(.failed(operation: "?", path: "?", reason: "stored"))
                }
            }
        }
        // Retryable: the broker then disconnects with 0x89 and the client sends again.
        guard case .unavailable(_, _, let reason) = failure else {
            Issue.record("expected unavailable, got \(failure)")
            return
        }
        #expect(reason.contains("locked"), "\(reason)")
    }

    @Test func anAcknowledgementFailedForALockDoesNotHoldUpTheDevicesLaterOnes() async throws {
        let fixture = try await LaneFixture(lockPatience: .milliseconds(100))
        defer { fixture.stop() }
        let device = fixture.device
        let ids = try await fixture.storedIDs(["a", "b"])
        #expect(ids.count == 2)
        let holder = try Database(path: fixture.store.path)
        try holder.executeScript("BEGIN IMMEDIATE")
        let first = try await fixture.onLoop { lane, done in
            lane.acknowledge(device, messageIDs: [ids[0]]) { result in done((try? result.get()) == nil) }
        }
        #expect(first, "the first acknowledgement should fail while the file is locked")
        try holder.executeScript("ROLLBACK")
        // Once the lock is gone the next one is written and answered, not joined to the failed call.
        let removed = try await fixture.onLoop(limit: .seconds(3)) { lane, done in
            lane.acknowledge(device, messageIDs: [ids[1]]) { result in done((try? result.get()) ?? -1) }
        }
        #expect(removed == 1)
        #expect(try await fixture.pendingCount() == 1)
    }

    @Test func anAcknowledgementWaitsForCompanyOrItsDelay() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let device = fixture.device
        let ids = try await fixture.storedIDs(["a", "b"])
        #expect(ids.count == 2)
        // With a store in the same turn: one commit for both.
        let together = try await fixture.onLoop { lane, done in
            let before = lane.commits
            var answered = 0
            lane.acknowledge(device, messageIDs: [ids[0]]) { _ in
                answered += 1
                if answered == 2 { done(lane.commits - before) }
            }
            lane.store([fixture.message("c")], quota: nil) { _ in
                answered += 1
                if answered == 2 { done(lane.commits - before) }
            }
        }
        #expect(together == 1)
        // Alone: committed after its delay, not in its own turn.
        let started = ContinuousClock.now
        let removed = try await fixture.onLoop { lane, done in
            lane.acknowledge(device, messageIDs: [ids[1]]) { result in done((try? result.get()) ?? -1) }
        }
        #expect(removed == 1)
        #expect(ContinuousClock.now - started >= SQLiteMessageLane.lateWriteDelay)
        #expect(try await fixture.pendingCount() == 1)
    }

    @Test func theWALIsCheckpointedOnceItGrows() async throws {
        let fixture = try await LaneFixture(checkpointPages: 8)
        defer { fixture.stop() }
        let checkpoints: Int = try await fixture.onLoop { lane, done in
            var left = 40
            func next() {
                lane.store([fixture.message("m\(left)", text: String(repeating: "x", count: 3000))], quota: nil) { _ in
                    left -= 1
                    if left > 0 { return next() }
                    func wait() {
                        if lane.checkpoints > 0 { return done(lane.checkpoints) }
                        fixture.loop.scheduleTimer(after: .milliseconds(5), wait)
                    }
                    wait()
                }
            }
            next()
        }
        #expect(checkpoints >= 1)
    }

    @Test func closingCommitsWhatWasSubmittedAndRefusesMore() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let (first, later) = try await fixture.onLoop { lane, done in
            var first: Bool?
            lane.store([fixture.message("before-close")], quota: nil) { first = (try? $0.get()) != nil }
            lane.close()
            lane.store([fixture.message("after-close")], quota: nil) { done((first, (try? $0.get()) != nil)) }
        }
        #expect(first == true)
        #expect(later == false)
        #expect(try await fixture.pendingCount() == 1)
    }

    @Test func aReadAfterAnAcknowledgementInTheSameTurnSeesItGone() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let device = fixture.device
        let ids = try await fixture.storedIDs(["a", "b"])
        // As when the device acknowledges and its next connection reads the queue at once:
        // the late write goes first, in the same transaction.
        let left: [Int64] = try await fixture.onLoop { lane, done in
            lane.acknowledge(device, messageIDs: [ids[0]]) { _ in }
            lane.pending(device, after: 0, limit: 10) { done((try? $0.get())?.messages.map(\.messageID) ?? [-1]) }
        }
        #expect(left == [ids[1]])
    }

    @Test func closingWaitsOnceForALockedFileAndCommits() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let holder = try Database(path: fixture.store.path)
        try holder.executeScript("BEGIN IMMEDIATE")
        let release = Task.detached {
            try await Task.sleep(for: .milliseconds(200))
            try holder.executeScript("COMMIT")
        }
        let stored: Bool = try await fixture.onLoop { lane, done in
            lane.store([fixture.message("at-close")], quota: nil) { done((try? $0.get()) != nil) }
            // The turn met the lock and waits on a timer; closing now waits for the lock instead.
            fixture.loop.scheduleTimer(after: .milliseconds(20)) { lane.close() }
        }
        try await release.value
        #expect(stored)
        #expect(try await fixture.pendingCount() == 1)
    }

    @Test func acknowledgementsOfOneDeviceBeforeACommitAreOneCall() async throws {
        let fixture = try await LaneFixture()
        defer { fixture.stop() }
        let device = fixture.device
        let ids = try await fixture.storedIDs(["m0", "m1", "m2"])
        let (calls, removed): (Int, [Int]) = try await fixture.onLoop { lane, done in
            let before = lane.committedCalls
            var removed: [Int] = []
            for id in ids {
                lane.acknowledge(device, messageIDs: [id]) { removed.append((try? $0.get()) ?? -1) }
            }
            lane.store([fixture.message("next")], quota: nil) { _ in done((lane.committedCalls - before, removed)) }
        }
        // One call for the three acknowledgements, one for the store; each caller hears the total.
        #expect(calls == 2)
        #expect(removed == [3, 3, 3])
        #expect(try await fixture.pendingCount() == 1)
    }
}
