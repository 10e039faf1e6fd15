import IMProtocol

/// Everything imserver keeps durably, behind one boundary with two implementations:
/// `SQLiteServerStore` (one file, the embedded default) and `PostgresServerStore` (shared by
/// several nodes).
///
/// The contract every implementation keeps, and the broker relies on:
/// - a call that returned has committed (a message is stored before its PUBACK);
/// - each call is one transaction: it happens whole or not at all;
/// - calls from one caller complete in submission order;
/// - failures are `ServerStoreError`s naming the store and the operation; `unavailable` means
///   the store cannot be reached now and the same call may succeed later.
///
/// Single-item conveniences (`userState`, `storeMessage`, ...) are built on these in
/// `ServerStore+Conveniences.swift`, so an implementation writes each operation once.
public protocol ServerStore: Sendable {
    /// Where the data lives, for messages: a file's path, or a database URL without its password.
    var location: String { get }
    /// Ends the store after the work already submitted; later calls fail.
    func close() async
    /// A number that moves when another process or node changes the apps' overrides.
    func externalChangeCounter() async throws(ServerStoreError) -> Int64

    // MARK: Apps
    /// The overrides `imserver app` recorded, by app key.
    func appOverrides() async throws(ServerStoreError) -> [String: AppOverride]
    /// Blocks or unblocks an app (overriding the configuration file).
    func setAppBlocked(_ appKey: String, _ blocked: Bool) async throws(ServerStoreError)
    /// Gives the app a new random secret, recorded with the time; returns it.
    func rotateSecret(_ appKey: String, now: Int64) async throws(ServerStoreError) -> String

    // MARK: Users
    /// The states of several users in one read, in the order asked; `.initial` for a user never touched.
    func userStates(_ users: [(appKey: String, userID: String)]) async throws(ServerStoreError) -> [UserState]
    /// Blocks the users until `until` (ms since the epoch).
    ///
    /// `requestedAt` (ms since the epoch) is when the server received the call: of a user's
    /// blocks and unblocks, and of its deactivations and reactivations, the one received last
    /// stands, whatever order their writes reach the store in (a call held up on its way to
    /// PostgreSQL, whose caller gave up and called again elsewhere, may be written late).
    func block(appKey: String, userIDs: [String], until: Int64, requestedAt: Int64) async throws(ServerStoreError)
    func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError)
    func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError)
    func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError)
    /// Expires the users' tokens issued before `before`; the time only moves forward.
    func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws(ServerStoreError)

    // MARK: Devices
    /// Records device logins in one transaction; each result is true the first time the device
    /// is seen. A user's first device takes over the messages queued while it had none.
    func registerDevices(_ registrations: [DeviceRegistration], now: Int64) async throws(ServerStoreError) -> [Bool]
    /// The registered devices of `userID`, oldest first.
    func devices(appKey: String, userID: String) async throws(ServerStoreError) -> [DeviceRecord]

    // MARK: Messages and queues
    /// Stores messages in one transaction and queues each for every device of its recipients;
    /// a resend (same app, sender and cid) is a duplicate; `quota` refuses what would exceed it.
    func storeMessages(_ messages: [NewMessage], quota: QueueQuota?) async throws(ServerStoreError) -> [StoredMessageResult]
    /// The device's queued messages with ids above `after`, oldest first, at most `limit`.
    func pending(appKey: String, userID: String, deviceID: String, after: Int64, limit: Int) async throws(ServerStoreError) -> [QueuedMessage]
    func pendingCount(appKey: String, userID: String, deviceID: String) async throws(ServerStoreError) -> Int
    /// How many deliveries wait in all device queues (one per message and device), for `/metrics`.
    func queuedDeliveryCount() async throws(ServerStoreError) -> Int
    /// What the user sent that no device has acknowledged yet.
    func queuedUsage(appKey: String, userID: String) async throws(ServerStoreError) -> QueueUsage
    /// Removes messages from the device's queue; returns how many were there.
    @discardableResult
    func acknowledge(appKey: String, userID: String, deviceID: String, messageIDs: [Int64]) async throws(ServerStoreError) -> Int
    /// Deletes the app's messages stored before `before`, with every queue entry still holding them.
    @discardableResult
    func purgeExpired(appKey: String, before: Int64) async throws(ServerStoreError) -> PurgeResult

    // MARK: Server API nonces
    /// Records the nonce of a signed API request until `expiresAt`; false when it is recorded
    /// already and not expired at `now` (a replay, perhaps to another node).
    func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws(ServerStoreError) -> Bool
    /// Forgets the nonces expired at `now`.
    func forgetNonces(expiredAt now: Int64) async throws(ServerStoreError)
}
