import IMPostgres

extension PostgresServerStore {
    /// The device's row, as a subquery on $1 (app), $2 (user), $3 (device).
    private static let deviceSubquery = "(SELECT id FROM device WHERE app_key = $1 AND user_id = $2 AND device_id = $3)"

    public func pending(
        appKey: String, userID: String, deviceID: String, after: Int64, limit: Int
    ) async throws(ServerStoreError) -> [QueuedMessage] {
        try await read("read the queue of device \(deviceID)") { connection in
            try connection.execute("""
                SELECT m.id, m.uid, m.sender, m.recipients, m.text, m.cid, m.sent_at
                FROM queue q JOIN message m ON m.id = q.message
                WHERE q.device = \(Self.deviceSubquery) AND q.message > $4
                ORDER BY q.message LIMIT $5
                """, [.text(appKey), .text(userID), .text(deviceID), .integer(after), .integer(Int64(max(limit, 0)))]).rows
                .map { row in
                    QueuedMessage(
                        messageID: row[0].int64 ?? 0, uid: row[1].string ?? "", from: row[2].string ?? "",
                        to: (row[3].string ?? "").split(separator: Self.recipientSeparator).map(String.init),
                        text: row[4].string ?? "", cid: row[5].string ?? "", sentAt: row[6].int64 ?? 0)
                }
        }
    }

    public func pendingCount(appKey: String, userID: String, deviceID: String) async throws(ServerStoreError) -> Int {
        try await read("count the queue of device \(deviceID)") { connection in
            Int(try connection.execute("SELECT count(*) FROM queue WHERE device = \(Self.deviceSubquery)",
                                       [.text(appKey), .text(userID), .text(deviceID)]).rows.first?[0].int64 ?? 0)
        }
    }

    public func queuedDeliveryCount() async throws(ServerStoreError) -> Int {
        try await read("count the device queues") { connection in
            Int(try connection.execute("SELECT count(*) FROM queue").rows.first?[0].int64 ?? 0)
        }
    }

    public func queuedUsage(appKey: String, userID: String) async throws(ServerStoreError) -> QueueUsage {
        try await read("read the queued usage of \(userID)") { connection in
            try Self.usage(connection, appKey: appKey, userID: userID)
        }
    }

    static func usage(_ connection: PostgresConnection, appKey: String, userID: String) throws -> QueueUsage {
        let row = try connection.execute("SELECT messages, bytes FROM queued_usage WHERE app_key = $1 AND user_id = $2",
                                         [.text(appKey), .text(userID)]).rows.first
        return QueueUsage(messages: Int(row?[0].int64 ?? 0), bytes: Int(row?[1].int64 ?? 0))
    }

    /// One statement (its own transaction, one round trip): the queue entries go, and the
    /// senders' usage drops by the messages that left their last queue. Every part of the
    /// statement sees the rows as they were before it, so "no queue left" looks past the device's own.
    @discardableResult
    public func acknowledge(
        appKey: String, userID: String, deviceID: String, messageIDs: [Int64]
    ) async throws(ServerStoreError) -> Int {
        guard !messageIDs.isEmpty else { return 0 }
        let ids = "{" + messageIDs.map(String.init).joined(separator: ",") + "}"
        return try await read("acknowledge messages of device \(deviceID)") { connection in
            Int(try connection.execute("""
                WITH target AS \(Self.deviceSubquery),
                gone AS (DELETE FROM queue WHERE device = (SELECT id FROM target) AND message = ANY($4::bigint[]) RETURNING message),
                freed AS (SELECT m.app_key, m.sender, count(*) AS count, sum(octet_length(m.text)) AS size
                          FROM gone g JOIN message m ON m.id = g.message
                          WHERE NOT EXISTS (SELECT 1 FROM queue q WHERE q.message = g.message AND q.device <> (SELECT id FROM target))
                          GROUP BY m.app_key, m.sender),
                released AS (UPDATE queued_usage u SET messages = u.messages - f.count, bytes = u.bytes - f.size
                             FROM freed f WHERE u.app_key = f.app_key AND u.user_id = f.sender RETURNING 1)
                SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM released)
                """, [.text(appKey), .text(userID), .text(deviceID), .text(ids)]).rows.first?[0].int64 ?? 0)
        }
    }

    @discardableResult
    public func purgeExpired(appKey: String, before: Int64) async throws(ServerStoreError) -> PurgeResult {
        try await write("purge expired messages of app \(appKey)") { connection in
            let arguments: [PostgresValue] = [.text(appKey), .integer(before)]
            _ = try connection.execute("""
                UPDATE queued_usage SET messages = queued_usage.messages - gone.count, bytes = queued_usage.bytes - gone.size
                FROM (SELECT sender, count(*) AS count, sum(octet_length(text)) AS size FROM message m
                      WHERE app_key = $1 AND sent_at < $2 AND EXISTS (SELECT 1 FROM queue WHERE message = m.id)
                      GROUP BY sender) AS gone
                WHERE queued_usage.app_key = $1 AND queued_usage.user_id = gone.sender
                """, arguments)
            let entries = try connection.execute(
                "DELETE FROM queue WHERE message IN (SELECT id FROM message WHERE app_key = $1 AND sent_at < $2)", arguments).affectedRows
            let messages = try connection.execute("DELETE FROM message WHERE app_key = $1 AND sent_at < $2", arguments).affectedRows
            return PurgeResult(messages: messages, queueEntries: entries)
        }
    }
}
