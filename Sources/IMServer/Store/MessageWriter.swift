import IMStore

/// Writes messages and acknowledgements inside one transaction: each user's device rows and
/// each sender's usage read once, each message's id counted on from the one before, and each
/// sender's queued usage changed once, by what the whole transaction stored less what it
/// released (`finish`).
///
/// What it reads and learns goes into a `WriterMemory`. The lane keeps one memory for its
/// connection, so that while nobody else writes the next turn reads none of it again, and one
/// writer for a whole turn of calls, so that a message stored and one acknowledged in the same
/// turn by the same sender cost no write of the usage at all.
struct MessageWriter {
    let db: Database
    private let memory: WriterMemory
    /// What this transaction stored less what it released, by sender, not yet in `queued_usage`.
    private var usageChanges: [UserKey: QueueUsage] = [:]

    init(db: Database, memory: WriterMemory = WriterMemory()) {
        self.db = db
        self.memory = memory
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
        // The first message's id comes from the file (`SQL.insertMessage`); the write lock keeps
        // others from storing, so later ones count on from it (two subqueries less each).
        var insert = SQLiteServerStore.SQL.insertMessage
        if let nextID = memory.nextMessageID {
            // It follows time and only grows (see `SQL.idsPerMillisecond`).
            columns.append(.integer(max(nextID, SQLiteServerStore.SQL.firstID(ofMillisecond: message.sentAt))))
            insert = SQLiteServerStore.SQL.insertNextMessage
        }
        try db.execute(insert, columns)
        guard db.changes > 0 else { return try firstCopy(of: message) }
        let messageID = db.lastInsertRowID
        // At Int64's end the next one goes through the file's count, which refuses it.
        memory.nextMessageID = messageID < .max ? messageID + 1 : nil
        var deliveries: [Delivery] = []
        var entries = 0
        for userID in recipients {
            for device in try recipientRows(appKey: message.appKey, userID: userID) {
                try db.execute(SQLiteServerStore.SQL.insertQueueEntry, [.integer(device.id), .integer(messageID)])
                entries += 1
                if device.deviceID != SQLiteServerStore.placeholderDeviceID {
                    deliveries.append(Delivery(userID: userID, deviceID: device.deviceID))
                }
            }
        }
        // Every message gets at least one queue entry (a placeholder's, if need be), so it counts.
        usageChanges[sender, default: QueueUsage()].add(messageOf: size)
        if entries == 1 { memory.rememberQueuedOnce(messageID, sender: sender, bytes: size) }
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
            let queuedOnce = memory.takeQueuedOnce(messageID)
            guard db.changes > 0 else { continue }
            removed += 1
            if let queuedOnce {
                usageChanges[queuedOnce.sender, default: QueueUsage()].remove(messageOf: queuedOnce.bytes)
                continue
            }
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
            if let stored = memory.usage(of: sender) { memory.remember(stored + change, of: sender) }
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
        if let stored = memory.usage(of: sender) { return stored + changed }
        let row = try db.fetchOne(SQLiteServerStore.SQL.queuedUsage, [.text(sender.appKey), .text(sender.userID)])
        let stored = QueueUsage(messages: Int(row?[0].int64 ?? 0), bytes: Int(row?[1].int64 ?? 0))
        memory.remember(stored, of: sender)
        return stored + changed
    }

    /// The user's device rows as the file has them.
    private func rows(of user: UserKey) throws -> WriterMemory.Rows {
        if let known = memory.rows(of: user) { return known }
        let rows = try SQLiteServerStore.deviceRows(db, appKey: user.appKey, userID: user.userID)
        memory.remember(rows, of: user)
        return rows
    }

    /// The user's device rows, creating the placeholder when the user has none.
    private func recipientRows(appKey: String, userID: String) throws -> WriterMemory.Rows {
        let user = UserKey(appKey: appKey, userID: userID)
        let rows = try rows(of: user)
        guard rows.isEmpty else { return rows }
        try db.execute(SQLiteServerStore.SQL.insertDevice,
                       [.text(appKey), .text(userID), .text(SQLiteServerStore.placeholderDeviceID), "", 0])
        let placeholder: WriterMemory.Rows = [(db.lastInsertRowID, SQLiteServerStore.placeholderDeviceID)]
        memory.remember(placeholder, of: user)
        return placeholder
    }
}
