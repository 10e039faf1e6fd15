import IMPostgres

/// What one turn of the broker's loop asked of PostgreSQL through `PostgresMessageLane`,
/// sent as one job on the lane's connection: the stores (one statement per quota), the
/// acknowledgements (one statement), then the queue reads (one statement).
///
/// A value the loop fills and runs on the lane's connection; the callers' answers stay with the lane.
struct PostgresLaneBatch {
    /// Stores under one quota: one call of the store function, in one transaction.
    struct Stores: Sendable {
        let quota: QueueQuota?
        var messages: [NewMessage] = []
        var uids: [String] = []
        /// Each caller's messages, as a range of `messages`.
        var calls: [Range<Int>] = []
    }

    /// What each statement answered; nil for one not run (yet).
    struct Outcome: Sendable {
        var stores: [Result<[StoredMessageResult], ServerStoreError>?]
        var acknowledgements: Result<[Int], ServerStoreError>?
        var reads: Result<[[QueuedMessage]], ServerStoreError>?
    }

    private(set) var stores: [Stores] = []
    private(set) var acknowledgements: [(device: DeviceKey, messageIDs: [Int64])] = []
    private(set) var reads: [QueueReadRequest] = []
    /// Where each device's acknowledgements are in `acknowledgements`.
    private var acknowledging: [DeviceKey: Int] = [:]
    /// The callers' calls gathered.
    private(set) var calls = 0
    /// Whether the stores send their notices through PostgreSQL; false when every other node
    /// takes them over a link (`NodeLinks.carriesAll`) and the lane sends them there.
    var notify = true

    var isEmpty: Bool { calls == 0 }
    /// Whether a read of `device` was gathered.
    func reads(_ device: DeviceKey) -> Bool { reads.contains { $0.device == device } }

    /// Adds a caller's messages (with their uids); returns the store group and the caller's place in it.
    mutating func store(_ messages: [NewMessage], uids: [String], quota: QueueQuota?) -> (group: Int, call: Int) {
        calls += 1
        let group = stores.firstIndex { $0.quota == quota } ?? {
            stores.append(Stores(quota: quota))
            return stores.count - 1
        }()
        let start = stores[group].messages.count
        stores[group].messages += messages
        stores[group].uids += uids
        stores[group].calls.append(start..<start + messages.count)
        return (group, stores[group].calls.count - 1)
    }

    /// Adds acknowledgements of `device` to its list; returns the list's place.
    mutating func acknowledge(_ device: DeviceKey, messageIDs: [Int64]) -> Int {
        calls += 1
        if let index = acknowledging[device] {
            acknowledgements[index].messageIDs += messageIDs.filter { !acknowledgements[index].messageIDs.contains($0) }
            return index
        }
        acknowledgements.append((device, messageIDs))
        acknowledging[device] = acknowledgements.count - 1
        return acknowledgements.count - 1
    }

    /// Adds a read; returns its place.
    mutating func read(_ request: QueueReadRequest) -> Int {
        calls += 1
        reads.append(request)
        return reads.count - 1
    }

    /// Runs on `connection` what `outcome` has no answer for, in order, and hands `then` the
    /// answers. A step whose connection is lost runs again once on a fresh connection (after a
    /// restart of PostgreSQL the idle connection fails once); lost again, it and the steps
    /// after it fail. Any other failure is that step's answer.
    func run(
        on connection: PostgresLaneConnection, node: String, location: String, from outcome: Outcome, retried: Bool = false,
        then: @escaping (Outcome) -> Void
    ) {
        guard let step = nextStep(outcome, node: node, location: location) else { return then(outcome) }
        connection.execute(prepared: step.sql, step.parameters) { result in
            var outcome = outcome
            if case .failure(let error) = result, error.kind == .connection {
                guard !retried else {
                    fail(&outcome, with: PostgresServerStore.storeError(error, operation: "run \(calls) message calls", location: location))
                    return then(outcome)
                }
                return run(on: connection, node: node, location: location, from: outcome, retried: true, then: then)
            }
            step.record(result, &outcome)
            run(on: connection, node: node, location: location, from: outcome, retried: retried, then: then)
        }
    }

    /// A statement of the batch and where its answer goes.
    private struct Step {
        let sql: String
        let parameters: [PostgresValue]
        let record: (Result<PostgresResult, PostgresError>, inout Outcome) -> Void
    }

    /// The first step `outcome` has no answer for: the stores, the acknowledgements, the reads.
    private func nextStep(_ outcome: Outcome, node: String, location: String) -> Step? {
        if let index = stores.indices.first(where: { outcome.stores[$0] == nil }) {
            let group = stores[index]
            let statement = PostgresServerStore.storing(group.messages, uids: group.uids, quota: group.quota, node: node, notify: notify)
            let operation = PostgresServerStore.storingOperation(group.messages)
            return Step(sql: statement.sql, parameters: statement.parameters) { result, outcome in
                outcome.stores[index] = statement.answer(result, operation: operation, location: location)
            }
        }
        if outcome.acknowledgements == nil, let statement = PostgresServerStore.acknowledging(acknowledgements) {
            let operation = "acknowledge messages of \(acknowledgements.count) devices"
            return Step(sql: statement.sql, parameters: statement.parameters) { result, outcome in
                outcome.acknowledgements = statement.answer(result, operation: operation, location: location)
            }
        }
        if !reads.isEmpty, outcome.reads == nil {
            let statement = PostgresServerStore.reading(reads)
            let operation = "read the queues of \(reads.count) devices"
            return Step(sql: statement.sql, parameters: statement.parameters) { result, outcome in
                outcome.reads = statement.answer(result, operation: operation, location: location)
            }
        }
        return nil
    }

    /// An outcome with no answer yet.
    var unanswered: Outcome { Outcome(stores: stores.map { _ in nil }, acknowledgements: nil, reads: nil) }

    /// Answers every step not answered yet with `error`.
    func fail(_ outcome: inout Outcome, with error: ServerStoreError) {
        for index in outcome.stores.indices where outcome.stores[index] == nil { outcome.stores[index] = .failure(error) }
        if outcome.acknowledgements == nil { outcome.acknowledgements = .failure(error) }
        if outcome.reads == nil { outcome.reads = .failure(error) }
    }
}
