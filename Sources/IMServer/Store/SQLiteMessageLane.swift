import IMStore
import IMTransport

/// The SQLite store's message calls, run on the broker's event loop: everything one turn of
/// the loop asked for, in one transaction at the end of that turn.
///
/// Why on the loop: through the store's queue a message crossed threads at every step (the
/// loop, a Dispatch worker, Swift's executor, the loop again), three times per message (store,
/// fetch, acknowledge), and at light load each crossing woke a sleeping thread: 6-7 context
/// switches and about 240 us of server CPU per message (BENCHMARKS.md). Here calls gather while
/// the loop reads and run once it has read everything (`EventLoop.executeAtEndOfTurn`): an
/// idle server does nothing, a busy one commits many messages at once, and the PUBACKs and
/// deliveries that follow leave in the same flush.
///
/// Why that does not stall the loop: a commit in WAL mode with `synchronous=NORMAL` (safe
/// against a killed process) is a write(2) into the OS's cache, tens of microseconds. The two
/// waits SQLite could add are taken out. The connection never waits for another's lock (busy
/// timeout 0): a turn that finds the file locked, by the store's queue (logins, the server
/// API) or by `imserver app`, tries again 1 ms later from a timer, for `lockPatience` at most.
/// And it never checkpoints: its WAL hook asks the store's queue to (a checkpoint syncs files),
/// off the loop. With `synchronous=FULL` each commit syncs the WAL, on the loop, once a turn.
final class SQLiteMessageLane: MessageLane {
    /// How long calls wait for another connection's write lock before failing.
    static let lockPatience: Duration = .seconds(5)
    /// WAL pages after which a checkpoint is asked for; past `restartPages` the checkpoint
    /// waits for the lane's writes to pause (a passive one cannot keep up with a busy writer).
    static let checkpointPages = 1_000
    static let restartPages = 16_000

    private let store: SQLiteServerStore
    private let loop: EventLoop
    private let db: Database
    private var jobs: [Job] = []
    private var turnScheduled = false
    private var retryTimer: TimerID?
    private var lockedSince: ContinuousClock.Instant?
    private var checkpointing = false
    private var closed = false
    /// Transactions committed and the calls they carried, for tests and benchmarks.
    private(set) var commits = 0
    private(set) var committedCalls = 0

    /// One call: `run` does its work inside the turn's transaction, `finish` answers it after.
    private struct Job {
        let writes: Bool
        let run: (Database, _ ownSavepoint: Bool) -> Void
        let finish: ((any Error)?) -> Void
    }

    /// Opens the lane's own connection to the store's file. Call on `loop`, before clients come.
    init(store: SQLiteServerStore, loop: EventLoop) throws(ServerStoreError) {
        self.store = store
        self.loop = loop
        var configuration = Database.Configuration()
        configuration.synchronous = store.synchronous
        configuration.busyTimeoutMilliseconds = 0
        do {
            db = try Database(path: store.path, configuration: configuration)
            try db.executeScript(SQLiteServerStore.connectionPragmas)
        } catch {
            throw .cannotOpen(path: store.path, reason: "\(error)")
        }
        try? db.onWALCommit { [weak self] pages in self?.walGrew(to: pages) }
    }

    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void) {
        guard !messages.isEmpty else { return then(.success([])) }
        let uids: [String]
        do { uids = try store.prepare(messages) } catch { return then(.failure(error)) }
        submit(SQLiteServerStore.storingOperation(messages), writes: true, {
            try SQLiteServerStore.storeMessages($0, messages, uids: uids, quota: quota)
        }, then: then)
    }

    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<[QueuedMessage], any Error>) -> Void) {
        submit("read the queue of device \(device.deviceID)", writes: false, {
            try SQLiteServerStore.pending($0, appKey: device.appKey, userID: device.userID, deviceID: device.deviceID,
                                          after: after, limit: limit)
        }, then: then)
    }

    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        guard !messageIDs.isEmpty else { return then(.success(0)) }
        submit("acknowledge messages of device \(device.deviceID)", writes: true, {
            try SQLiteServerStore.acknowledge($0, appKey: device.appKey, userID: device.userID, deviceID: device.deviceID,
                                              messageIDs: messageIDs)
        }, then: then)
    }

    /// Commits what was submitted (unless the file stays locked), fails what is left, closes.
    func close() {
        guard !closed else { return }
        if let retryTimer { loop.cancelTimer(retryTimer) }
        retryTimer = nil
        runTurn()
        closed = true
        let left = jobs
        jobs = []
        finish(left, failure: ServerStoreError.failed(operation: "store messages", path: store.path, reason: "the server is stopping"))
        db.close()
    }

    // MARK: Turns

    private func submit<T>(
        _ operation: String, writes: Bool, _ body: @escaping (Database) throws -> T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        guard !closed else {
            return then(.failure(ServerStoreError.failed(operation: operation, path: store.path, reason: "the server is stopping")))
        }
        var outcome: Result<T, any Error>?
        let store = self.store
        jobs.append(Job(writes: writes, run: { db, ownSavepoint in
            // A savepoint keeps one failing call from undoing the others of its turn.
            outcome = Result { ownSavepoint ? try db.transaction { try body($0) } : try body(db) }
        }, finish: { failure in
            let result = failure.map { .failure($0) } ?? outcome ?? .failure(ServerStoreError.failed(
                operation: operation, path: store.path, reason: "the call was never run"))
            then(result.mapError { store.storeError($0, operation: operation) })
        }))
        guard !turnScheduled else { return }
        turnScheduled = true
        loop.executeAtEndOfTurn { [weak self] in
            self?.turnScheduled = false
            self?.runTurn()
        }
    }

    private func runTurn() {
        guard !closed, retryTimer == nil, !jobs.isEmpty else { return }
        let batch = jobs
        jobs = []
        let writes = batch.contains { $0.writes }
        do {
            try db.executeScript(writes ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        } catch where error.code == .busy || error.code == .locked {
            jobs = batch + jobs
            return waitForLock(error)
        } catch {
            return finish(batch, failure: error)
        }
        lockedSince = nil
        for job in batch where !closed { job.run(db, batch.count > 1 && job.writes) }
        do {
            try db.executeScript("COMMIT")
        } catch {
            if db.isInTransaction { try? db.executeScript("ROLLBACK") }
            return finish(batch, failure: error)
        }
        commits += 1
        committedCalls += batch.count
        finish(batch, failure: nil)
    }

    private func finish(_ batch: [Job], failure: (any Error)?) {
        for job in batch { job.finish(failure) }
    }

    private func waitForLock(_ error: DatabaseError) {
        let now = ContinuousClock.now
        let since = lockedSince ?? now
        guard now - since < Self.lockPatience else {
            lockedSince = nil
            let batch = jobs
            jobs = []
            return finish(batch, failure: error)
        }
        lockedSince = since
        retryTimer = loop.scheduleTimer(after: .milliseconds(1)) { [weak self] in
            self?.retryTimer = nil
            self?.runTurn()
        }
    }

    private func walGrew(to pages: Int) {
        guard pages >= Self.checkpointPages, !checkpointing else { return }
        checkpointing = true
        let store = self.store
        let restart = pages >= Self.restartPages
        loop.run(detached: { try await store.checkpoint(restart: restart) }) { [weak self] _ in
            self?.checkpointing = false
        }
    }
}
