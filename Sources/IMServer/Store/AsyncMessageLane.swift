import IMStore
import IMTransport

/// A `MessageLane` through a store's async calls: each call leaves the loop for a task and
/// comes back with `execute`. For stores whose calls may wait on a network (PostgreSQL).
///
/// Each call is a task of its own, so calls may run and answer out of the order they were
/// made: no read leaves its reader caught up, and a device's acknowledgements go one call at
/// a time (those that come meanwhile gather for the next), so they never race each other.
final class AsyncMessageLane: MessageLane {
    /// Acknowledgements of one device waiting for its call under way, with their answers.
    private typealias Acknowledgement = (messageIDs: [Int64], then: (Result<Int, any Error>) -> Void)

    private let store: any ServerStore
    private let loop: EventLoop
    private var closed = false
    private(set) var commitStatistics = StoreCommitStatistics()
    /// Calls sent to the store and not answered yet.
    private var underWay = 0
    /// Each device's acknowledgements, while a call of them is under way.
    private var acknowledgements: [DeviceKey: PendingBatch<Acknowledgement>] = [:]
    var isIdle: Bool { underWay == 0 }

    init(store: any ServerStore, loop: EventLoop) {
        self.store = store
        self.loop = loop
    }

    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void) {
        let store = self.store
        run({ try await store.storeMessages(messages, quota: quota) }, then: then)
    }

    /// Never caught up: a store answered after this read may have run before it, or committed a
    /// smaller id after it, so a reader learns of new messages by reading again.
    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<QueueRead, any Error>) -> Void) {
        let store = self.store
        run({
            let messages = try await store.pending(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID,
                                                   after: after, limit: limit)
            return QueueRead(messages: messages, caughtUp: false)
        }, then: then)
    }

    /// Runs at once, or with the device's others in the call after the one under way.
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void) {
        acknowledgements[device, default: PendingBatch()].add((messageIDs, then))
        acknowledgeNext(device)
    }

    private func acknowledgeNext(_ device: DeviceKey) {
        guard let batch = acknowledgements[device]?.next() else {
            // Nothing waits and nothing is under way: a device served once keeps no entry.
            if acknowledgements[device]?.isBusy == false { acknowledgements[device] = nil }
            return
        }
        let store = self.store
        let messageIDs = batch.flatMap(\.messageIDs)
        run({
            try await store.acknowledge(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID, messageIDs: messageIDs)
        }, then: { [weak self] result in
            self?.acknowledgements[device]?.finish()
            for acknowledgement in batch { acknowledgement.then(result) }
            self?.acknowledgeNext(device)
        })
    }

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
