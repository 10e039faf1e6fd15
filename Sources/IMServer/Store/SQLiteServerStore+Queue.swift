import IMStore

extension SQLiteServerStore {
    /// Up to `limit` messages waiting for the device, in store order, after message id `after`.
    ///
    /// Pass the last id already in flight as `after` to page on without waiting for
    /// acknowledgements. An unknown device has nothing waiting.
    public func pending(
        appKey: String, userID: String, deviceID: String, after: Int64, limit: Int
    ) async throws(ServerStoreError) -> [QueuedMessage] {
        try await read("read the queue of device \(deviceID)") { db in
            try Self.pending(db, appKey: appKey, userID: userID, deviceID: deviceID, after: after, limit: limit)
        }
    }

    /// `pending(...)` inside the caller's transaction.
    static func pending(
        _ db: Database, appKey: String, userID: String, deviceID: String, after: Int64, limit: Int
    ) throws -> [QueuedMessage] {
        try db.fetchAll(SQL.pending, [.text(appKey), .text(userID), .text(deviceID), .integer(after), .integer(Int64(max(limit, 0)))])
            .map { row in
                QueuedMessage(
                    messageID: row[0].int64 ?? 0, uid: row[1].string ?? "", from: row[2].string ?? "",
                    to: (row[3].string ?? "").split(separator: Self.recipientSeparator).map(String.init),
                    text: row[4].string ?? "", cid: row[5].string ?? "", sentAt: row[6].int64 ?? 0)
            }
    }

    /// How many messages wait for the device.
    public func pendingCount(appKey: String, userID: String, deviceID: String) async throws(ServerStoreError) -> Int {
        try await read("count the queue of device \(deviceID)") { db in
            Int(try db.fetchOne(SQL.pendingCount, [.text(appKey), .text(userID), .text(deviceID)])?[0].int64 ?? 0)
        }
    }

    public func queuedDeliveryCount() async throws(ServerStoreError) -> Int {
        try await read("count the device queues") { db in Int(try db.fetchOne(SQL.queuedDeliveryCount, [])?[0].int64 ?? 0) }
    }

    /// What `userID` has sent that waits for delivery (see `QueueQuota`).
    public func queuedUsage(appKey: String, userID: String) async throws(ServerStoreError) -> QueueUsage {
        try await read("read the queued usage of \(userID)") { db in
            let row = try db.fetchOne(SQL.queuedUsage, [.text(appKey), .text(userID)])
            return QueueUsage(messages: Int(row?[0].int64 ?? 0), bytes: Int(row?[1].int64 ?? 0))
        }
    }

    /// Removes several messages from the device's queue in one transaction; returns how many were there.
    @discardableResult
    public func acknowledge(
        appKey: String, userID: String, deviceID: String, messageIDs: [Int64]
    ) async throws(ServerStoreError) -> Int {
        guard !messageIDs.isEmpty else { return 0 }
        return try await write("acknowledge messages of device \(deviceID)") { db in
            try Self.acknowledge(db, appKey: appKey, userID: userID, deviceID: deviceID, messageIDs: messageIDs)
        }
    }

    /// `acknowledge(...)` inside the caller's transaction (see `MessageWriter.acknowledge`).
    static func acknowledge(
        _ db: Database, appKey: String, userID: String, deviceID: String, messageIDs: [Int64]
    ) throws -> Int {
        var writer = MessageWriter(db: db)
        let removed = try writer.acknowledge(appKey: appKey, userID: userID, deviceID: deviceID, messageIDs: messageIDs)
        try writer.finish()
        return removed
    }

    /// Deletes the app's messages stored before `before` (ms since the epoch) and every queue
    /// entry still holding them: copies no device acknowledged within the retention time.
    @discardableResult
    public func purgeExpired(appKey: String, before: Int64) async throws(ServerStoreError) -> PurgeResult {
        try await write("purge expired messages of app \(appKey)") { db in
            try Self.purge(db, appKey: appKey, before: before)
        }
    }

    private static func purge(_ db: Database, appKey: String, before: Int64) throws -> PurgeResult {
        let arguments: [DatabaseValue] = [.integer(SQL.firstID(ofMillisecond: before)), .text(appKey), .integer(before)]
        try db.execute(SQL.purgeQueuedUsage, arguments)
        try db.execute(SQL.purgeQueue, arguments)
        let entries = db.changes
        try db.execute(SQL.raiseIDFloor, arguments)
        try db.execute(SQL.purgeMessages, arguments)
        return PurgeResult(messages: db.changes, queueEntries: entries)
    }
}
