import IMTransport

/// A `MessageLane` through a store's async calls: each call leaves the loop for a task and
/// comes back with `execute`. For stores whose calls may wait on a network (PostgreSQL).
final class AsyncMessageLane: MessageLane {
    private let store: any ServerStore
    private let loop: EventLoop
    private var closed = false
    private(set) var commitStatistics = StoreCommitStatistics()
    /// Calls sent to the store and not answered yet.
    private var underWay = 0
    var isIdle: Bool { underWay == 0 }

    init(store: any ServerStore, loop: EventLoop) {
        self.store = store
        self.loop = loop
    }

    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void) {
        let store = self.store
        run({ try await store.storeMessages(messages, quota: quota) }, then: then)
    }

    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<[QueuedMessage], any Error>) -> Void) {
        let store = self.store
        run({
            try await store.pending(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID, after: after, limit: limit)
        }, then: then)
    }

    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        let store = self.store
        run({
            try await store.acknowledge(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID, messageIDs: messageIDs)
        }, then: then)
    }

    /// Whether calls run and are answered in the order they were made: no, each is a task.
    var keepsOrder: Bool { false }

    func close() { closed = true }

    private func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T, then: @escaping (Result<T, any Error>) -> Void) {
        guard !closed else {
            return then(.failure(ServerStoreError.failed(operation: "use the message lane", path: store.location, reason: "closed")))
        }
        let started = ContinuousClock.now
        underWay += 1
        loop.run(detached: work) { [weak self] result in
            self?.underWay -= 1
            self?.commitStatistics.record(since: started, calls: 1)
            then(result)
        }
    }
}
