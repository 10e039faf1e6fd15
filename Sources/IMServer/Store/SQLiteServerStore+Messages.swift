import IMProtocol
import IMStore

extension SQLiteServerStore {

    /// Stores many messages in one transaction (one commit): the way to keep up with a high
    /// message rate. Results come in the order of `messages`.
    ///
    /// Each new message gets a fresh uid (see `newUIDs`) and one queue entry per registered device of
    /// each recipient; a recipient with no device yet gets one entry in a placeholder queue
    /// that the recipient's first device takes over. A message whose (app, sender, cid) is
    /// already stored, earlier or in this batch, is a resend: its result carries the first
    /// copy's uid, id and time with `isDuplicate` and no deliveries, and nothing is written.
    ///
    /// - Throws: `invalidUserID` for a sender or recipient that is not a valid user id, before
    ///   anything is written (validate with `IMIdentifier` first to keep one bad message from
    ///   failing a batch); `failed` when SQLite fails, and then nothing of the batch is stored.
    ///
    /// With `quota` (the app's, for what clients publish), a message that would take its sender's
    /// undelivered messages past it is not stored: its result carries `overQuota`.
    public func storeMessages(
        _ messages: [NewMessage], quota: QueueQuota?
    ) async throws(ServerStoreError) -> [StoredMessageResult] {
        guard !messages.isEmpty else { return [] }
        let uids = try prepare(messages)
        return try await write(Self.storingOperation(messages)) { db in
            try Self.storeMessages(db, messages, uids: uids, quota: quota)
        }
    }

    /// Stores `messages` with their `uids` (from `prepare`) inside the caller's transaction.
    static func storeMessages(
        _ db: Database, _ messages: [NewMessage], uids: [String], quota: QueueQuota?
    ) throws -> [StoredMessageResult] {
        var writer = MessageWriter(db: db)
        let results = try writer.store(messages, uids: uids, quota: quota)
        try writer.finish()
        return results
    }
}
