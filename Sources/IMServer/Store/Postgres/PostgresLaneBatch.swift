import IMPostgres

/// What one turn of the broker's loop asked of PostgreSQL through `PostgresMessageLane`,
/// sent as one job on one pooled connection: the stores (one statement per quota), the
/// acknowledgements (one statement), then the queue reads (one statement).
///
/// A value the loop fills and a pool thread runs; the callers' answers stay on the loop.
struct PostgresLaneBatch: Sendable {
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

    /// Runs on `connection` what `outcome` has no answer for, in order, and records the
    /// answers. Stops at a lost connection and returns its error (the steps from there on are
    /// left for another connection); any other failure is that step's answer.
    func run(on connection: PostgresConnection, node: String, location: String, into outcome: inout Outcome) -> PostgresError? {
        /// The step's answer; throws only a lost connection's error.
        func attempt<T>(_ operation: String, _ body: () throws -> T) throws(PostgresError) -> Result<T, ServerStoreError> {
            do {
                return .success(try body())
            } catch let error as PostgresError where error.kind == .connection {
                throw error
            } catch {
                return .failure(PostgresServerStore.storeError(error, operation: operation, location: location))
            }
        }
        do throws(PostgresError) {
            for (index, group) in stores.enumerated() where outcome.stores[index] == nil {
                outcome.stores[index] = try attempt(PostgresServerStore.storingOperation(group.messages)) {
                    try PostgresServerStore.store(
                        group.messages, uids: group.uids, quota: group.quota, node: node, notify: notify, on: connection)
                }
            }
            if !acknowledgements.isEmpty, outcome.acknowledgements == nil {
                outcome.acknowledgements = try attempt("acknowledge messages of \(acknowledgements.count) devices") {
                    try PostgresServerStore.acknowledge(acknowledgements, on: connection)
                }
            }
            if !reads.isEmpty, outcome.reads == nil {
                outcome.reads = try attempt("read the queues of \(reads.count) devices") {
                    try PostgresServerStore.pending(reads, on: connection)
                }
            }
            return nil
        } catch {
            return error
        }
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
