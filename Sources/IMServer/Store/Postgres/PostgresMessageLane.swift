import IMTransport

/// The PostgreSQL store's message calls: what one turn of the broker's loop asked for, sent
/// to PostgreSQL together as one job (`PostgresLaneBatch`), a few jobs at a time.
///
/// Why: each call a task and a statement of its own cost a round trip, two thread crossings
/// and a pooled connection per message and step (store, queue read, acknowledgement), and at
/// 1,000 messages/s a message crossing nodes waited 26 ms at the median for connections and
/// CPU, where the work was well under one (issue 42). Here calls gather while the loop reads and
/// while the job before runs; a job then stores everything gathered under one quota in one
/// statement (one transaction and its `deliver` notices: `PostgresStoreFunction`), drops every
/// device's acknowledged messages in one, and reads every queue asked for in one. A busy node
/// makes few, large statements; an idle one answers a lone call after three round trips at most.
/// Up to one job per pooled connection but one runs at once (the last is left to logins, the
/// server API and the heartbeat), so that a call made while a job runs need not wait for it.
/// Acknowledgements alone wait `acknowledgementDelay` for a store or a read to share their
/// job: nobody waits on their answer, and at light load a job per PUBACK cost the nodes 10 %
/// and PostgreSQL 6 % more CPU a message at 1,000 messages/s (BENCHMARKS.md). A node killed
/// meanwhile sends those messages once more, as the SQLite store's next commit does.
///
/// Calls are answered in the order their statements ran, not the order they were made, and
/// other nodes' messages come by notice: a connection caught up by a read is sent a new
/// message without reading only when the message's chain shows nothing missing before it
/// (`Delivery.previous`), and reads again otherwise.
/// Use only on the loop the lane was made for.
final class PostgresMessageLane: MessageLane {
    private let store: PostgresServerStore
    private let loop: EventLoop
    /// The calls gathered for the next job, and their callers' answers in the same places.
    private var waiting = PostgresLaneBatch()
    private var storeAnswers: [[(Result<[StoredMessageResult], any Error>) -> Void]] = []
    private var acknowledgementAnswers: [[(Result<Int, any Error>) -> Void]] = []
    private var readAnswers: [(Result<QueueRead, any Error>) -> Void] = []
    /// Acknowledgements of devices that have some in a job under way, waiting for its end: a
    /// device's never run two at a time, or each would take the other's entries for queues
    /// still holding the message, and neither would free its sender's usage.
    private var held: [DeviceKey: (messageIDs: [Int64], answers: [(Result<Int, any Error>) -> Void])] = [:]
    private var acknowledging: Set<DeviceKey> = []
    /// Jobs under way, and how many may be.
    private var jobs = 0
    let maxJobs: Int
    private var turnScheduled = false
    /// Set while acknowledgements alone wait for other calls to share their job.
    private var acknowledgementTimer: TimerID?
    private var closed = false
    private(set) var commitStatistics = StoreCommitStatistics()
    var isIdle: Bool { jobs == 0 && waiting.isEmpty && held.isEmpty }

    /// How long acknowledgements wait for a store or a read to share their job: at 1,000
    /// messages/s over three nodes a node stores one every 3 ms.
    static let acknowledgementDelay = Duration.milliseconds(5)

    init(store: PostgresServerStore, loop: EventLoop) {
        self.store = store
        self.loop = loop
        maxJobs = max(store.connections - 1, 1)
    }

    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void) {
        guard !messages.isEmpty else { return then(.success([])) }
        guard !closed else { return then(.failure(closedError(PostgresServerStore.storingOperation(messages)))) }
        let uids: [String]
        do { uids = try store.prepare(messages) } catch { return then(.failure(error)) }
        let (group, call) = waiting.store(messages, uids: uids, quota: quota)
        if group == storeAnswers.count { storeAnswers.append([]) }
        precondition(call == storeAnswers[group].count)
        storeAnswers[group].append(then)
        scheduleTurn()
    }

    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<QueueRead, any Error>) -> Void) {
        guard !closed else { return then(.failure(closedError("read the queue of device \(device.deviceID)"))) }
        let index = waiting.read(QueueReadRequest(device: device, after: after, limit: limit))
        precondition(index == readAnswers.count)
        readAnswers.append(then)
        scheduleTurn()
    }

    /// Joins the device's acknowledgements of the next job it may be in: one list per device
    /// however many PUBACKs came.
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        guard !messageIDs.isEmpty else { return then(.success(0)) }
        guard !closed else { return then(.failure(closedError("acknowledge messages of device \(device.deviceID)"))) }
        if acknowledging.contains(device) {
            held[device, default: ([], [])].messageIDs += messageIDs
            held[device]?.answers.append(then)
            return
        }
        let index = waiting.acknowledge(device, messageIDs: messageIDs)
        if index == acknowledgementAnswers.count { acknowledgementAnswers.append([]) }
        acknowledgementAnswers[index].append(then)
        scheduleTurn()
    }

    func close() { closed = true }

    private func scheduleTurn() {
        guard !turnScheduled, jobs < maxJobs else { return }
        if waiting.holdsOnlyAcknowledgements {
            guard acknowledgementTimer == nil else { return }
            acknowledgementTimer = loop.scheduleTimer(after: Self.acknowledgementDelay) { [weak self] in
                self?.acknowledgementTimer = nil
                self?.runNext()
            }
            return
        }
        turnScheduled = true
        loop.executeAtEndOfTurn { [weak self] in
            self?.turnScheduled = false
            self?.runNext()
        }
    }

    /// Sends what gathered as one job, unless as many as may be are under way (the end of one
    /// sends the next).
    private func runNext() {
        guard jobs < maxJobs, !waiting.isEmpty else { return }
        if let timer = acknowledgementTimer {
            loop.cancelTimer(timer)
            acknowledgementTimer = nil
        }
        let batch = waiting
        let answers = (storeAnswers, acknowledgementAnswers, readAnswers)
        waiting = PostgresLaneBatch()
        (storeAnswers, acknowledgementAnswers, readAnswers) = ([], [], [])
        jobs += 1
        acknowledging.formUnion(batch.acknowledgingDevices)
        let started = ContinuousClock.now
        // From a pool thread straight back to the loop: no task in between.
        let finish = LoopBound(confined: { [weak self] (outcome: PostgresLaneBatch.Outcome) in
            guard let self else { return }
            jobs -= 1
            release(batch.acknowledgingDevices)
            commitStatistics.record(since: started, calls: batch.calls)
            Self.answer(batch, outcome, answers)
            scheduleTurn()
        }, loop: loop)
        let loop = self.loop
        store.run(batch) { outcome in
            _ = loop.execute { finish.value(outcome) }
        }
    }

    /// The devices of a job that ended may have their held acknowledgements in the next.
    private func release(_ devices: [DeviceKey]) {
        for device in devices {
            acknowledging.remove(device)
            guard let (messageIDs, answers) = held.removeValue(forKey: device) else { continue }
            let index = waiting.acknowledge(device, messageIDs: messageIDs)
            if index == acknowledgementAnswers.count { acknowledgementAnswers.append([]) }
            acknowledgementAnswers[index] += answers
        }
    }

    private static func answer(
        _ batch: PostgresLaneBatch, _ outcome: PostgresLaneBatch.Outcome,
        _ answers: ([[(Result<[StoredMessageResult], any Error>) -> Void]], [[(Result<Int, any Error>) -> Void]],
                    [(Result<QueueRead, any Error>) -> Void])
    ) {
        for (index, group) in batch.stores.enumerated() {
            let result = outcome.stores[index] ?? .failure(.failed(operation: "store messages", path: "", reason: "never run"))
            for (call, range) in group.calls.enumerated() {
                answers.0[index][call](result.map { Array($0[range]) }.mapError { $0 })
            }
        }
        for (index, callers) in answers.1.enumerated() {
            let result = (outcome.acknowledgements ?? .success([])).map { $0.indices.contains(index) ? $0[index] : 0 }
            for caller in callers { caller(result.mapError { $0 }) }
        }
        for (index, caller) in answers.2.enumerated() {
            let result = (outcome.reads ?? .success([])).map { reads in
                let messages = reads.indices.contains(index) ? reads[index] : []
                return QueueRead(messages: messages, caughtUp: messages.count < batch.reads[index].limit)
            }
            caller(result.mapError { $0 })
        }
    }

    private func closedError(_ operation: String) -> ServerStoreError {
        .failed(operation: operation, path: store.location, reason: "the message lane is closed")
    }
}
