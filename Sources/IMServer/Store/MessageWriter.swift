import IMStore

/// Writes messages inside one transaction, remembering each recipient's device rows so a
/// batch looks them up once per recipient, and adding to each sender's queued usage once per
/// batch (`finish`), not once per message.
struct MessageWriter {
    let db: Database
    private var devicesByUser: [UserKey: [(id: Int64, deviceID: String)]] = [:]
    /// Each sender's usage as `queued_usage` had it before the batch, for quotas; only senders
    /// asked about.
    private var storedUsage: [UserKey: QueueUsage] = [:]
    /// What this batch stored, by sender, not yet added to `queued_usage`.
    private var addedBySender: [UserKey: QueueUsage] = [:]
    /// One past the id of the last message stored; nil until one is. The first message's id
    /// comes from the file (`SQL.insertMessage`); the transaction holds the write lock, so
    /// nobody else stores in between and later ones count on from here (a statement less each).
    private var nextID: Int64?

    init(db: Database) {
        self.db = db
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
            for device in try devices(appKey: message.appKey, userID: userID) {
                try db.execute(SQLiteServerStore.SQL.insertQueueEntry, [.integer(device.id), .integer(messageID)])
                if device.deviceID != SQLiteServerStore.placeholderDeviceID {
                    deliveries.append(Delivery(userID: userID, deviceID: device.deviceID))
                }
            }
        }
        // Every message gets at least one queue entry (a placeholder's, if need be), so it counts.
        addedBySender[sender, default: QueueUsage()].add(messageOf: size)
        return StoredMessageResult(uid: uid, messageID: messageID, sentAt: message.sentAt, isDuplicate: false, deliveries: deliveries)
    }

    /// Adds what the batch stored to its senders' queued usage. Call once, after the last
    /// `store` and inside the same transaction.
    mutating func finish() throws {
        for (sender, added) in addedBySender {
            try db.execute(SQLiteServerStore.SQL.addQueuedUsage, [
                .text(sender.appKey), .text(sender.userID), .integer(Int64(added.messages)), .integer(Int64(added.bytes)),
            ])
        }
        addedBySender = [:]
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

    /// The sender's usage with what this batch stored so far (the table counts it at `finish`).
    private mutating func usage(of sender: UserKey) throws -> QueueUsage {
        let added = addedBySender[sender] ?? QueueUsage()
        if let stored = storedUsage[sender] { return stored + added }
        let row = try db.fetchOne(SQLiteServerStore.SQL.queuedUsage, [.text(sender.appKey), .text(sender.userID)])
        let stored = QueueUsage(messages: Int(row?[0].int64 ?? 0), bytes: Int(row?[1].int64 ?? 0))
        storedUsage[sender] = stored
        return stored + added
    }

    /// The user's device rows, creating the placeholder when the user has none.
    private mutating func devices(appKey: String, userID: String) throws -> [(id: Int64, deviceID: String)] {
        let key = UserKey(appKey: appKey, userID: userID)
        if let known = devicesByUser[key] { return known }
        var rows = try SQLiteServerStore.deviceRows(db, appKey: appKey, userID: userID)
        if rows.isEmpty {
            try db.execute(SQLiteServerStore.SQL.insertDevice,
                           [.text(appKey), .text(userID), .text(SQLiteServerStore.placeholderDeviceID), "", 0])
            rows = [(db.lastInsertRowID, SQLiteServerStore.placeholderDeviceID)]
        }
        devicesByUser[key] = rows
        return rows
    }
}
