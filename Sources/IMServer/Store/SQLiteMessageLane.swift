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
/// against a killed process) is a write(2) into the OS's cache, tens of microseconds. Two
/// waits SQLite could add are taken out. The connection never waits for another's lock (busy
/// timeout 0): a turn that finds the file locked, by the store's queue (logins, the server
/// API) or by `imserver app`, tries again 1 ms later from a timer, for `lockPatience` at most.
/// And it never checkpoints: its WAL hook asks the store's queue to (a checkpoint syncs files),
/// off the loop. What remains: a page not in the cache is read from the file (the 64 MiB cache
/// keeps the hot indexes), and with `synchronous=FULL` each commit syncs the WAL on the loop.
/// Only `close()` waits for a lock, once, at shutdown.
final class SQLiteMessageLane: MessageLane {
    /// How long calls wait for another connection's write lock before failing.
    let lockPatience: Duration
    /// WAL pages after which a checkpoint is asked for; past `restartPages` the checkpoint
    /// waits for the lane's writes to pause (a passive one cannot keep up with a busy writer).
    /// A checkpoint copies each page once however many frames it has in the WAL, and at light
    /// load the same few pages make most frames: 4,000 rather than 1,000 took about 3 us off a
    /// message's CPU at 5,000/s (BENCHMARKS.md, issue 17's ninth step).
    let checkpointPages: Int
    /// Past 16,000 (32 MiB of 2 KiB pages) the WAL, and a crash's recovery, stop growing.
    var restartPages: Int { max(16_000, 4 * checkpointPages) }
    /// The longest a late write (an acknowledgement) waits for company.
    static let lateWriteDelay: Duration = .milliseconds(10)

    private let store: SQLiteServerStore
    private let loop: EventLoop
    private let db: Database
    private(set) var jobs: [LaneCall] = []
    private var turnScheduled = false
    private var retryTimer: TimerID?
    private var lateTimer: TimerID?
    private var lockedSince: ContinuousClock.Instant?
    private var checkpointing = false
    /// The WAL's size when the last checkpoint was asked for: the hook reports every page
    /// in the file, copied or not, until a write starts the file over.
    private var pagesAtCheckpoint = 0
    private var closed = false
    /// Acknowledgements submitted and not yet run, by device (see `acknowledge`).
    private var openAcknowledgements: [DeviceKey: OpenAcknowledgements] = [:]
    /// What the turns' writers learned of the file, kept while no other connection writes.
    private let memory = WriterMemory()
    /// Transactions committed (their times and sizes, for `/metrics`) and checkpoints done.
    private(set) var commitStatistics = StoreCommitStatistics()
    private(set) var checkpoints = 0
    /// Transactions committed and the calls they carried, for tests and benchmarks.
    var commits: Int { commitStatistics.batchSizes.count }
    var committedCalls: Int { Int(commitStatistics.batchSizes.sum) }

    /// Opens the lane's own connection to the store's file. Call on `loop`, before clients come.
    init(store: SQLiteServerStore, loop: EventLoop, lockPatience: Duration = .seconds(5),
         checkpointPages: Int = 4_000) throws(ServerStoreError) {
        self.store = store
        self.loop = loop
        self.lockPatience = lockPatience
        self.checkpointPages = checkpointPages
        var configuration = Database.Configuration()
        configuration.synchronous = store.synchronous
        configuration.busyTimeoutMilliseconds = 0
        configuration.batchesJournalWrites = true
        do {
            db = try Database(path: store.path, configuration: configuration)
            try db.executeScript(SQLiteServerStore.connectionPragmas)
        } catch {
            throw .cannotOpen(path: store.path, reason: "\(error)")
        }
        do {
            try db.onWALCommit { [weak self] pages in self?.walGrew(to: pages) }
        } catch {
            throw .cannotOpen(path: store.path, reason: "\(error)")
        }
    }

    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void) {
        guard !messages.isEmpty else { return then(.success([])) }
        let uids: [String]
        do { uids = try store.prepare(messages) } catch { return then(.failure(error)) }
        submit(SQLiteServerStore.storingOperation(messages), .write, {
            try $0.store(messages, uids: uids, quota: quota)
        }, then: then)
    }

    /// A read that found fewer than `limit` leaves its reader caught up: calls run and are
    /// answered in the order they were made, so every store answered after it is one it did
    /// not see.
    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<QueueRead, any Error>) -> Void) {
        submit("read the queue of device \(device.deviceID)", .read, {
            let messages = try SQLiteServerStore.pending($0.db, appKey: device.appKey, userID: device.userID,
                                                         deviceID: device.deviceID, after: after, limit: limit)
            return QueueRead(messages: messages, caughtUp: messages.count < limit)
        }, then: then)
    }

    /// Acknowledgements of a device join the call of that device not yet run, if any: one
    /// call per device and commit however many PUBACKs came. (Running them before a read that
    /// was asked for in between is harmless: a read sees fewer messages, never a wrong one.)
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        guard !messageIDs.isEmpty else { return then(.success(0)) }
        if let open = openAcknowledgements[device] {
            open.messageIDs += messageIDs
            open.answers.append(then)
            return
        }
        let open = OpenAcknowledgements(messageIDs: messageIDs, then: then)
        openAcknowledgements[device] = open
        submit("acknowledge messages of device \(device.deviceID)", .lateWrite, { [weak self] writer in
            self?.openAcknowledgements[device] = nil
            return try writer.acknowledge(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID,
                                          messageIDs: open.messageIDs)
        }, then: { [weak self] result in
            // Answered without running (the lock waited for too long, the lane closed): later
            // acknowledgements of the device must not join a call that is over.
            if self?.openAcknowledgements[device] === open { self?.openAcknowledgements[device] = nil }
            for answer in open.answers { answer(result) }
        })
    }

    /// Commits what was submitted, and what its answers submit in turn, then closes; waits for
    /// another connection's lock here, once, up to `lockPatience`. Calls left fail.
    func close() {
        guard !closed else { return }
        db.waitingForLocks(atMost: lockPatience) { _ in
            for _ in 0..<8 where !jobs.isEmpty {
                cancelTimers()
                lockedSince = nil
                runTurn(late: true)
                // Still locked after waiting the whole patience: what is left fails.
                if retryTimer != nil { break }
            }
        }
        cancelTimers()
        closed = true
        for job in jobs { job.finish(stopping(job.operation)) }
        jobs = []
        db.close()
    }

    private func cancelTimers() {
        if let retryTimer { loop.cancelTimer(retryTimer) }
        retryTimer = nil
        if let lateTimer { loop.cancelTimer(lateTimer) }
        lateTimer = nil
    }

    private func stopping(_ operation: String) -> ServerStoreError {
        .failed(operation: operation, path: store.path, reason: "the server is stopping")
    }

    // MARK: Turns

    private func submit<T>(
        _ operation: String, _ kind: LaneCall.Kind, _ body: @escaping (inout MessageWriter) throws -> T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        guard !closed else { return then(.failure(stopping(operation))) }
        var outcome: Result<T, any Error>?
        let store = self.store
        jobs.append(LaneCall(kind: kind, operation: operation, run: { writer in
            outcome = Result { try body(&writer) }
            if case .failure(let error) = outcome { return error }
            return nil
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

    private func runTurn(late: Bool = false) {
        guard !closed, retryTimer == nil, !jobs.isEmpty else { return }
        guard late || jobs.contains(where: { $0.kind != .lateWrite }) else { return runLater() }
        if let lateTimer { loop.cancelTimer(lateTimer) }
        lateTimer = nil
        let batch = jobs
        jobs = []
        switch transact(batch) {
        case .committed:
            lockedSince = nil
            finish(batch, failure: nil)
        case .locked(let error):
            jobs = batch + jobs
            waitForLock(error)
        case .callFailed:
            lockedSince = nil
            // No savepoint per call (two more statements each): a failure, which is rare, undoes
            // the turn and its calls run again one transaction each, so it stays with its call.
            if batch.count == 1 { finish(batch, failure: nil) } else { batch.forEach(runAlone) }
        case .failed(let error):
            lockedSince = nil
            finish(batch, failure: error)
        }
    }

    /// Runs `job` in a transaction of its own and answers it.
    private func runAlone(_ job: LaneCall) {
        switch transact([job]) {
        case .committed, .callFailed: job.finish(nil)
        case .locked(let error): job.finish(error)
        case .failed(let error): job.finish(error)
        }
    }

    /// Runs `batch` in one transaction with one writer, and commits.
    private func transact(_ batch: [LaneCall]) -> LaneCall.Outcome {
        let writes = batch.contains { $0.kind != .read }
        let started = ContinuousClock.now
        do {
            try db.execute(writes ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        } catch where error.code == .busy || error.code == .locked {
            return .locked(error)
        } catch {
            return .failed(error)
        }
        if writes { memory.begin(db) }
        var writer = MessageWriter(db: db, memory: memory)
        var failure: (any Error)?
        for job in batch where failure == nil { failure = job.run(&writer) }
        if let failure {
            rollBack()
            // A lock met inside a call (a read during WAL recovery): the whole turn waits.
            if let error = failure as? DatabaseError, error.code == .busy || error.code == .locked { return .locked(error) }
            return .callFailed
        }
        do {
            try writer.finish()
            try db.execute("COMMIT")
        } catch {
            rollBack()
            return .failed(error)
        }
        if writes { memory.committed(db) }
        commitStatistics.record(since: started, calls: batch.count)
        return .committed
    }

    private func rollBack() {
        if db.isInTransaction { try? db.execute("ROLLBACK") }
        memory.forget()
    }

    /// Runs the late writes waiting alone once their delay is up.
    private func runLater() {
        guard lateTimer == nil else { return }
        lateTimer = loop.scheduleTimer(after: Self.lateWriteDelay) { [weak self] in
            self?.lateTimer = nil
            self?.runTurn(late: true)
        }
    }

    private func finish(_ batch: [LaneCall], failure: (any Error)?) {
        for job in batch { job.finish(failure) }
    }

    private func waitForLock(_ error: DatabaseError) {
        let now = ContinuousClock.now
        let since = lockedSince ?? now
        guard now - since < lockPatience else {
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
        if pages < pagesAtCheckpoint { pagesAtCheckpoint = 0 }
        guard pages - pagesAtCheckpoint >= checkpointPages, !checkpointing else { return }
        checkpointing = true
        pagesAtCheckpoint = pages
        let store = self.store
        let restart = pages >= restartPages
        loop.run(detached: { try await store.checkpoint(restart: restart) }) { [weak self] result in
            self?.checkpointing = false
            if case .success = result { self?.checkpoints += 1 }
        }
    }
}
