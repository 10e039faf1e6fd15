import IMTransport

/// The PostgreSQL store's message calls: what one turn of the broker's loop asked for, sent
/// to PostgreSQL together as one job (`PostgresLaneBatch`), one job at a time.
///
/// Why: each call a task and a statement of its own cost a round trip, two thread crossings
/// and a pooled connection per message and step (store, queue read, acknowledgement), and at
/// 1,000 messages/s a message crossing nodes waited 26 ms at the median for connections and
/// CPU, where the work was well under one (issue 42). Here calls gather while the loop reads and
/// while the job before runs; a job then stores everything gathered under one quota in one
/// statement (one transaction: `PostgresStoreFunction`), drops every
/// device's acknowledged messages in one, and reads every queue asked for in one. A busy node
/// makes few, large statements; an idle one answers a lone call after three round trips at most.
/// One job runs at a time, on the lane's own connection, without blocking the loop
/// (`PostgresLaneConnection`; the pool's connections are left to logins, the server API and
/// the heartbeat): the calls made meanwhile wait for its end and go together in the next.
/// Three jobs at a time per node, so that a call made during a job need not wait for it, made
/// the jobs smaller and set them against each other for PostgreSQL's
/// locks and the cores: saturated, a p99 of 209-1,605 ms against 98-183 one at a time, at the
/// same rate or a lower one; at 1,000 messages/s the runs overlap (BENCHMARKS.md).
/// Acknowledgements are held back up to `acknowledgementDelay` and go together: nobody waits on
/// their answer, and at 1,000 messages/s a statement and a commit for the one or two a store's
/// job carried cost PostgreSQL more than the store itself did (BENCHMARKS.md). They go at once
/// with a read of their device (which must not find them) and when their device's connection
/// closes (its next connection, here or on another node, reads its queue). A node killed
/// meanwhile sends those messages once more, as the SQLite store's next commit does.
///
/// The stores' `deliver` notices go through NOTIFY from the transaction, or, while every live
/// node is linked to this one (`NodeLinks.carriesAll` when the job starts), over the links
/// once it has committed, before the callers are answered.
///
/// Calls are answered in the order their statements ran, not the order they were made, and
/// other nodes' messages come by notice: a connection caught up by a read is sent a new
/// message without reading only when the message's chain shows nothing missing before it
/// (`Delivery.previous`), and reads again otherwise.
/// Use only on the loop the lane was made for.
final class PostgresMessageLane: MessageLane {
    private let store: PostgresServerStore
    private let loop: EventLoop
    /// The lane's own connection: its jobs run there, one at a time.
    private let connection: PostgresLaneConnection
    /// The calls gathered for the next job, and their callers' answers in the same places.
    private var waiting = PostgresLaneBatch()
    private var storeAnswers: [[(Result<[StoredMessageResult], any Error>) -> Void]] = []
    private var acknowledgementAnswers: [[(Result<Int, any Error>) -> Void]] = []
    private var readAnswers: [(Result<QueueRead, any Error>) -> Void] = []
    /// Acknowledgements held back (see above), by device.
    private var held: [DeviceKey: (messageIDs: [Int64], answers: [(Result<Int, any Error>) -> Void])] = [:]
    private var heldEntries = 0
    /// Whether a job is under way: the next waits for its end.
    private var running = false
    private var turnScheduled = false
    /// Set while acknowledgements are held back.
    private var acknowledgementTimer: TimerID?
    private var closed = false
    private(set) var commitStatistics = StoreCommitStatistics()
    /// The links to the other nodes, once the cluster starts them: while they reach every live
    /// node, stores leave NOTIFY out and their notices go there (`NodeLinks`).
    var links: NodeLinks?
    var isIdle: Bool { !running && waiting.isEmpty && held.isEmpty }

    /// How long acknowledgements are held back: at 1,000 messages/s over three nodes a node
    /// then sends a dozen or more in one statement, where the store's jobs carried one or two.
    static let acknowledgementDelay = Duration.milliseconds(50)
    /// How many held-back entries send them at once, however young: a busy node's jobs stay
    /// small enough not to hold up the stores queued behind them.
    static let acknowledgementLimit = 256

    /// How long this lane holds acknowledgements back (tests make it longer or shorter).
    private let holdFor: Duration

    init(store: PostgresServerStore, loop: EventLoop, holdingAcknowledgementsFor holdFor: Duration = acknowledgementDelay) {
        self.store = store
        self.loop = loop
        self.holdFor = holdFor
        connection = PostgresLaneConnection(conninfo: store.url, setup: PostgresServerStore.sessionSettings, loop: loop)
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
        sendHeld(of: device)
        let index = waiting.read(QueueReadRequest(device: device, after: after, limit: limit))
        precondition(index == readAnswers.count)
        readAnswers.append(then)
        scheduleTurn()
    }

    /// Holds the device's acknowledgements back with the others (one list per device however
    /// many PUBACKs came), unless a read of the device is gathered: then they go before it.
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        guard !messageIDs.isEmpty else { return then(.success(0)) }
        guard !closed else { return then(.failure(closedError("acknowledge messages of device \(device.deviceID)"))) }
        held[device, default: ([], [])].messageIDs += messageIDs
        held[device]?.answers.append(then)
        heldEntries += messageIDs.count
        if waiting.reads(device) {
            sendHeld(of: device)
        } else if heldEntries >= Self.acknowledgementLimit {
            sendHeld()
        } else {
            holdAcknowledgements()
        }
    }

    func connectionEnded(_ device: DeviceKey) {
        sendHeld(of: device)
    }

    func close() {
        closed = true
        sendHeld()
        if isIdle { connection.close() }
    }

    /// Arms the timer that sends the held acknowledgements, unless it is armed or none are held.
    private func holdAcknowledgements() {
        guard acknowledgementTimer == nil, !held.isEmpty else { return }
        acknowledgementTimer = loop.scheduleTimer(after: holdFor) { [weak self] in
            self?.acknowledgementTimer = nil
            self?.sendHeld()
        }
    }

    /// Moves the held acknowledgements (of `device` only, if given) into the next job.
    private func sendHeld(of device: DeviceKey? = nil) {
        for key in device.map({ [$0] }) ?? Array(held.keys) {
            guard let (messageIDs, answers) = held.removeValue(forKey: key) else { continue }
            heldEntries -= messageIDs.count
            let index = waiting.acknowledge(key, messageIDs: messageIDs)
            if index == acknowledgementAnswers.count { acknowledgementAnswers.append([]) }
            acknowledgementAnswers[index] += answers
        }
        if held.isEmpty, let timer = acknowledgementTimer {
            loop.cancelTimer(timer)
            acknowledgementTimer = nil
        }
        scheduleTurn()
    }

    private func scheduleTurn() {
        guard !turnScheduled, !running, !waiting.isEmpty else { return }
        turnScheduled = true
        loop.executeAtEndOfTurn { [weak self] in
            self?.turnScheduled = false
            self?.runNext()
        }
    }

    /// Sends what gathered as one job, unless one is under way (its end sends the next).
    private func runNext() {
        guard !running, !waiting.isEmpty else { return }
        var batch = waiting
        batch.notify = !(links?.carriesAll ?? false)
        let answers = (storeAnswers, acknowledgementAnswers, readAnswers)
        waiting = PostgresLaneBatch()
        (storeAnswers, acknowledgementAnswers, readAnswers) = ([], [], [])
        running = true
        let started = ContinuousClock.now
        batch.run(on: connection, node: store.nodeName, location: store.location, from: batch.unanswered) { [weak self] outcome in
            guard let self else { return }
            running = false
            commitStatistics.record(since: started, calls: batch.calls)
            if !batch.notify {
                links?.publish(batch.notices(outcome, node: store.nodeName, at: ServerClock.systemWallMicroseconds()))
            }
            Self.answer(batch, outcome, answers)
            if closed, isIdle { connection.close() }
            scheduleTurn()
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
