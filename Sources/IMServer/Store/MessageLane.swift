import IMTransport

/// The store calls on a message's way through the broker, answered on the broker's loop:
/// store what a client published, read a device's queue, drop what a device acknowledged.
///
/// These are the calls made once or more for every message, so they get a path of their own:
/// `SQLiteMessageLane` runs them on the loop itself, everything a turn gathered in one
/// transaction; `AsyncMessageLane` sends them to any `ServerStore` and back (PostgreSQL, where
/// a round trip must not block the loop). Either keeps the store's contract: a call answered
/// with success has committed. `SQLiteMessageLane` also runs and answers calls in the order
/// they were made; `AsyncMessageLane` does not (each call is a task of its own), which is why
/// the broker keeps at most one call of each kind under way per connection.
/// Use only on the loop the lane was made for.
protocol MessageLane: AnyObject {
    /// Stores `messages` (see `ServerStore.storeMessages`).
    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void)
    /// Up to `limit` messages waiting for `device` after message id `after`.
    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<[QueuedMessage], any Error>) -> Void)
    /// Drops `messageIDs` from `device`'s queue; answers with how many were there.
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void)
    /// Whether calls run and are answered in the order they were made, so that a caller may
    /// have several under way (`SQLiteMessageLane`) or must wait for each (`AsyncMessageLane`).
    var keepsOrder: Bool { get }
    /// No call is waiting or under way: what was submitted is committed (or has failed).
    var isIdle: Bool { get }
    /// Its transactions' durations and sizes so far, for `/metrics`.
    var commitStatistics: StoreCommitStatistics { get }
    /// Lets the lane's resources go; later calls fail. SQLite's lane first commits what was
    /// submitted; calls under way in the async lane answer if the loop still runs.
    func close()
}

extension ServerStore {
    /// The lane for this store on `loop`: SQLite's on the loop, any other through its async
    /// calls. Call on `loop` (SQLite's lane opens its connection there, before any client).
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        // A downcast rather than a protocol requirement: the lane is the broker's business,
        // not part of the store's public boundary.
        if let sqlite = self as? SQLiteServerStore { return try SQLiteMessageLane(store: sqlite, loop: loop) }
        return AsyncMessageLane(store: self, loop: loop)
    }
}
