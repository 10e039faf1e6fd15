import IMPostgres

/// Writes messages inside one PostgreSQL transaction, as `MessageWriter` does in SQLite:
/// one `message` row, a queue entry per device of each recipient (a placeholder's when the
/// recipient has none), the sender's usage counted, resends found by (app, sender, cid).
struct PostgresMessageWriter {
    let connection: PostgresConnection
    private var devicesByUser: [String: [(id: Int64, deviceID: String)]] = [:]
    private var usageBySender: [String: QueueUsage] = [:]

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Stores `message` unless `quota` is given and the sender's undelivered messages would
    /// exceed it; a resend of a stored message is a duplicate either way.
    mutating func store(_ message: NewMessage, uid: String, quota: QueueQuota?) throws -> StoredMessageResult {
        let sender = message.appKey + "\u{1}" + message.from
        let size = message.text.utf8.count
        if let quota {
            let usage = try usage(of: message, key: sender)
            guard quota.admits(usage, adding: size) else {
                return try copy(of: message) ?? StoredMessageResult(
                    uid: "", messageID: 0, sentAt: message.sentAt, isDuplicate: false, deliveries: [], overQuota: usage)
            }
        }
        var recipients: [String] = []
        var seen: Set<String> = []
        for userID in message.to where seen.insert(userID).inserted {
            recipients.append(userID)
        }
        let joined = recipients.joined(separator: String(SQLiteServerStore.recipientSeparator))
        let inserted = try connection.execute("""
            INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (app_key, sender, cid) DO NOTHING RETURNING id
            """, [.text(message.appKey), .text(uid), .text(message.from), .text(joined), .text(message.cid),
                  .text(message.text), .integer(message.sentAt)])
        guard let messageID = inserted.rows.first?[0].int64 else {
            guard let copy = try copy(of: message) else {
                throw ServerStoreError.failed(operation: "store a message", path: "postgres",
                                              reason: "insert ignored but no message with cid \(message.cid) found")
            }
            return copy
        }
        var deliveries: [Delivery] = []
        for userID in recipients {
            for device in try devices(appKey: message.appKey, userID: userID) {
                _ = try connection.execute("INSERT INTO queue(device, message) VALUES ($1, $2)",
                                           [.integer(device.id), .integer(messageID)])
                if device.deviceID != SQLiteServerStore.placeholderDeviceID {
                    deliveries.append(Delivery(userID: userID, deviceID: device.deviceID))
                }
            }
        }
        _ = try connection.execute("""
            INSERT INTO queued_usage(app_key, user_id, messages, bytes) VALUES ($1, $2, 1, $3)
            ON CONFLICT (app_key, user_id) DO UPDATE
            SET messages = queued_usage.messages + 1, bytes = queued_usage.bytes + excluded.bytes
            """, [.text(message.appKey), .text(message.from), .integer(Int64(size))])
        if var usage = usageBySender[sender] {
            usage.messages += 1
            usage.bytes += size
            usageBySender[sender] = usage
        }
        return StoredMessageResult(uid: uid, messageID: messageID, sentAt: message.sentAt, isDuplicate: false, deliveries: deliveries)
    }

    /// The stored message with the same app, sender and cid, as a duplicate's result.
    private func copy(of message: NewMessage) throws -> StoredMessageResult? {
        try connection.execute("SELECT id, uid, sent_at FROM message WHERE app_key = $1 AND sender = $2 AND cid = $3",
                               [.text(message.appKey), .text(message.from), .text(message.cid)]).rows.first.map { row in
            StoredMessageResult(uid: row[1].string ?? "", messageID: row[0].int64 ?? 0, sentAt: row[2].int64 ?? 0,
                                isDuplicate: true, deliveries: [])
        }
    }

    private mutating func usage(of message: NewMessage, key: String) throws -> QueueUsage {
        if let known = usageBySender[key] { return known }
        let usage = try PostgresServerStore.usage(connection, appKey: message.appKey, userID: message.from)
        usageBySender[key] = usage
        return usage
    }

    /// The user's device rows, creating the placeholder when the user has none.
    private mutating func devices(appKey: String, userID: String) throws -> [(id: Int64, deviceID: String)] {
        let key = appKey + "\u{1}" + userID
        if let known = devicesByUser[key] { return known }
        var rows = try PostgresServerStore.deviceRows(connection, appKey: appKey, userID: userID)
        if rows.isEmpty {
            let created = try connection.execute("""
                INSERT INTO device(app_key, user_id, device_id, platform, registered_at) VALUES ($1, $2, '', '', 0) RETURNING id
                """, [.text(appKey), .text(userID)])
            rows = [(created.rows.first?[0].int64 ?? 0, SQLiteServerStore.placeholderDeviceID)]
        }
        devicesByUser[key] = rows
        return rows
    }
}
