import IMStore

/// Writes messages and acknowledgements inside one transaction: each user's device rows looked
/// up once (and kept between transactions by a `DeviceRowCache` the caller keeps), each
/// message's id counted on from the one before, and each sender's queued usage changed once,
/// by what the whole transaction stored less what it released (`finish`).
///
/// The lane keeps one writer for a whole turn of calls, so that a message stored and one
/// acknowledged in the same turn by the same sender cost no write of the usage at all.
struct MessageWriter {
    let db: Database
    private let deviceRows: DeviceRowCache
    /// Each sender's usage as `queued_usage` had it before the transaction, for quotas; only
    /// senders asked about.
    private var storedUsage: [UserKey: QueueUsage] = [:]
    /// What this transaction stored less what it released, by sender, not yet in `queued_usage`.
    private var usageChanges: [UserKey: QueueUsage] = [:]
    /// One past the id of the last message stored; nil until one is. The first message's id
    /// comes from the file (`SQL.insertMessage`); the transaction holds the write lock, so
    /// nobody else stores in between and later ones count on from here (a statement less each).
    private var nextID: Int64?

    init(db: Database, devices: DeviceRowCache = DeviceRowCache()) {
        self.db = db
        self.deviceRows = devices
    }

    /// Stores each message with its uid (see `store(_:uid:quota:)`).
    mutating func store(_ messages: [NewMessage], uids: [String], quota: QueueQuota?) throws -> [StoredMessageResult] {
        try zip(messages, uids).map { message, uid in try store(message, uid: uid, quota: quota) }
    }

    /// Stores `message` unless `quota` is given and the sender's undelivered messages would
    /// exceed it; a resend of a stored message is a duplicate either way.
    mutating func store(_ message: NewMessage, uid: String, quota: QueueQuota? = nil) throws -> StoredMessageResult {
        let sender = UserKey(appKey: message.appKey, userID: message.from)
        let size = message.text.utf8.count
        if let quota {
            let usage = try usage(of: sender)
            guard quota.admits(usage, adding: size) else {
                return try copy(of: message) ?? StoredMessageResult(
                    uid: "", messageID: 0, sentAt: message.sentAt, isDuplicate: false, deliveries: [], overQuota: usage)
            }
        }
        var recipients = message.to
        if recipients.count > 1 {
            var seen: Set<String> = []
            recipients = message.to.filter { seen.insert($0).inserted }
        }
        let joined = recipients.joined(separator: String(SQLiteServerStore.recipientSeparator))
        var columns: [DatabaseValue] = [
            .text(message.appKey), .text(uid), .text(message.from), .text(joined),
            .text(message.cid), .text(message.text), .integer(message.sentAt),
        ]
        var insert = SQLiteServerStore.SQL.insertMessage
        if let nextID {
            // It follows time and only grows (see `SQL.idsPerMillisecond`).
            columns.append(.integer(max(nextID, SQLiteServerStore.SQL.firstID(ofMillisecond: message.sentAt))))
            insert = SQLiteServerStore.SQL.insertNextMessage
        }
        try db.execute(insert, columns)
        guard db.changes > 0 else { return try firstCopy(of: message) }
        let messageID = db.lastInsertRowID
        // At Int64's end the next one goes through the file's count, which refuses it.
        nextID = messageID < .max ? messageID + 1 : nil
        var deliveries: [Delivery] = []
        for userID in recipients {
            for device in try recipientRows(appKey: message.appKey, userID: userID) {
                try db.execute(SQLiteServerStore.SQL.insertQueueEntry, [.integer(device.id), .integer(messageID)])
                if device.deviceID != SQLiteServerStore.placeholderDeviceID {
                    deliveries.append(Delivery(userID: userID, deviceID: device.deviceID))
                }
            }
        }
        // Every message gets at least one queue entry (a placeholder's, if need be), so it counts.
        usageChanges[sender, default: QueueUsage()].add(messageOf: size)
        return StoredMessageResult(uid: uid, messageID: messageID, sentAt: message.sentAt, isDuplicate: false, deliveries: deliveries)
    }

    /// Takes `messageIDs` out of the device's queue and returns how many were in it; a message
    /// that leaves the last queue holding it stops counting for its sender.
    mutating func acknowledge(appKey: String, userID: String, deviceID: String, messageIDs: [Int64]) throws -> Int {
        let user = UserKey(appKey: appKey, userID: userID)
        guard let device = try rows(of: user).first(where: { $0.deviceID == deviceID }) else { return 0 }
        var removed = 0
        for messageID in messageIDs {
            try db.execute(SQLiteServerStore.SQL.deleteQueueEntry, [.integer(device.id), .integer(messageID)])
            guard db.changes > 0 else { continue }
            removed += 1
            guard let row = try db.fetchOne(SQLiteServerStore.SQL.unqueuedMessage, [.integer(messageID)]) else { continue }
            let sender = UserKey(appKey: row[0].string ?? "", userID: row[1].string ?? "")
            usageChanges[sender, default: QueueUsage()].remove(messageOf: Int(row[2].int64 ?? 0))
        }
        return removed
    }

    /// Writes each sender's change of queued usage. Call once, after the last `store` or
    /// `acknowledge` and inside the same transaction.
    mutating func finish() throws {
        for (sender, change) in usageChanges where !change.isZero {
            try db.execute(SQLiteServerStore.SQL.addQueuedUsage, [
                .text(sender.appKey), .text(sender.userID), .integer(Int64(change.messages)), .integer(Int64(change.bytes)),
            ])
        }
        usageChanges = [:]
    }

    private func firstCopy(of message: NewMessage) throws -> StoredMessageResult {
        guard let copy = try copy(of: message) else {
            // Only the cid conflict is ignored, so this cannot happen short of a damaged index.
            throw ServerStoreError.failed(operation: "store a message", path: db.path,
                                          reason: "insert ignored but no message with cid \(message.cid) found")
        }
        return copy
    }

    /// The stored message with the same app, sender and cid, as a duplicate's result.
    private func copy(of message: NewMessage) throws -> StoredMessageResult? {
        let key: [DatabaseValue] = [.text(message.appKey), .text(message.from), .text(message.cid)]
        return try db.fetchOne(SQLiteServerStore.SQL.firstCopy, key).map { row in
            StoredMessageResult(uid: row[1].string ?? "", messageID: row[0].int64 ?? 0, sentAt: row[2].int64 ?? 0,
                                isDuplicate: true, deliveries: [])
        }
    }

    /// The sender's usage with what this transaction changed so far (the table has it at `finish`).
    private mutating func usage(of sender: UserKey) throws -> QueueUsage {
        let changed = usageChanges[sender] ?? QueueUsage()
        if let stored = storedUsage[sender] { return stored + changed }
        let row = try db.fetchOne(SQLiteServerStore.SQL.queuedUsage, [.text(sender.appKey), .text(sender.userID)])
        let stored = QueueUsage(messages: Int(row?[0].int64 ?? 0), bytes: Int(row?[1].int64 ?? 0))
        storedUsage[sender] = stored
        return stored + changed
    }

    /// The user's device rows as the file has them.
    private func rows(of user: UserKey) throws -> DeviceRowCache.Rows {
        if let known = deviceRows[user] { return known }
        let rows = try SQLiteServerStore.deviceRows(db, appKey: user.appKey, userID: user.userID)
        deviceRows[user] = rows
        return rows
    }

    /// The user's device rows, creating the placeholder when the user has none.
    private func recipientRows(appKey: String, userID: String) throws -> DeviceRowCache.Rows {
        let user = UserKey(appKey: appKey, userID: userID)
        let rows = try rows(of: user)
        guard rows.isEmpty else { return rows }
        try db.execute(SQLiteServerStore.SQL.insertDevice,
                       [.text(appKey), .text(userID), .text(SQLiteServerStore.placeholderDeviceID), "", 0])
        let placeholder: DeviceRowCache.Rows = [(db.lastInsertRowID, SQLiteServerStore.placeholderDeviceID)]
        deviceRows[user] = placeholder
        return placeholder
    }
}
