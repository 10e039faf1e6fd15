import IMTransport

/// The store calls on a message's way through the broker, answered on the broker's loop:
/// store what a client published, read a device's queue, drop what a device acknowledged.
///
/// These are the calls made once or more for every message, so they get a path of their own,
/// which each store makes for itself (`MessageLaneStore`): `SQLiteMessageLane` runs them on the
/// loop itself, everything a turn gathered in one transaction; `PostgresMessageLane` sends what a
/// turn gathered as one job on a connection of its own, reading the answer as the loop finds
/// it (a round trip must not block the loop). Either keeps the
/// store's contract: a call answered with success has committed. How far the order of calls
/// holds is each lane's own business, and shows only where the broker can use it: a read that
/// leaves its reader caught up (`QueueRead.caughtUp`), and each delivery's chain where the store
/// keeps one (`Delivery.previous`).
/// Use only on the loop the lane was made for.
protocol MessageLane: AnyObject {
    /// Stores `messages` (see `ServerStore.storeMessages`).
    func store(_ messages: [NewMessage], quota: QueueQuota?, then: @escaping (Result<[StoredMessageResult], any Error>) -> Void)
    /// Up to `limit` messages waiting for `device` after message id `after`.
    func pending(_ device: DeviceKey, after: Int64, limit: Int, then: @escaping (Result<QueueRead, any Error>) -> Void)
    /// Drops `messageIDs` from `device`'s queue; answers with how many were there (with the
    /// acknowledgements the lane ran in the same call). A caller may have any number under
    /// way: the lane gathers them as suits its store.
    func acknowledge(_ device: DeviceKey, messageIDs: [Int64], then: @escaping (Result<Int, any Error>) -> Void)
    /// The device's connection closed: what it acknowledged goes to the store now, so that
    /// its next connection, here or on another node, is not handed those messages again.
    func connectionEnded(_ device: DeviceKey)
    /// No call is waiting or under way: what was submitted is committed (or has failed).
    var isIdle: Bool { get }
    /// Its transactions' durations and sizes so far, for `/metrics`.
    var commitStatistics: StoreCommitStatistics { get }
    /// Lets the lane's resources go; later calls fail. SQLite's lane first commits what was
    /// submitted; calls under way in the async lane answer if the loop still runs.
    func close()
}
