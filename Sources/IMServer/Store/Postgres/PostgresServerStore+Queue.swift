import IMPostgres

extension PostgresServerStore {
    /// The device's row, as a subquery on $1 (app), $2 (user), $3 (device).
    private static let deviceSubquery = "(SELECT id FROM device WHERE app_key = $1 AND user_id = $2 AND device_id = $3)"

    public func pending(
        appKey: String, userID: String, deviceID: String, after: Int64, limit: Int
    ) async throws(ServerStoreError) -> [QueuedMessage] {
        let read = QueueReadRequest(device: DeviceKey(appKey: appKey, userID: userID, deviceID: deviceID), after: after, limit: limit)
        return try await self.read("read the queue of device \(deviceID)") { connection in
            try Self.pending([read], on: connection)[0]
        }
    }

    /// Reads several devices' queues in one statement: for each request, up to its limit of
    /// the messages after its id, in id order.
    static func pending(_ reads: [QueueReadRequest], on connection: PostgresConnection) throws -> [[QueuedMessage]] {
        guard !reads.isEmpty else { return [] }
        return try connection.run(reading(reads))
    }

    /// The statement `pending` runs.
    static func reading(_ reads: [QueueReadRequest]) -> PostgresStatement<[[QueuedMessage]]> {
        PostgresStatement(sql: """
            SELECT r.k, m.id, m.uid, m.sender, m.recipients, m.text, m.cid, m.sent_at
            FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[]) WITH ORDINALITY AS r(app, usr, dev, after, lim, k)
            CROSS JOIN LATERAL (
                SELECT q.message FROM queue q
                WHERE q.device = (SELECT id FROM device WHERE app_key = r.app AND user_id = r.usr AND device_id = r.dev)
                  AND q.message > r.after
                ORDER BY q.message LIMIT r.lim) AS p
            JOIN message m ON m.id = p.message
            ORDER BY r.k, m.id
            """, parameters: [texts(reads.map(\.device.appKey)), texts(reads.map(\.device.userID)), texts(reads.map(\.device.deviceID)),
                  integers(reads.map(\.after)), integers(reads.map { Int64(max($0.limit, 0)) })]) { result in
            queues(result.rows, count: reads.count)
        }
    }

    /// The queue read's rows as each request's messages.
    private static func queues(_ rows: [PostgresRow], count: Int) -> [[QueuedMessage]] {
        var messages = [[QueuedMessage]](repeating: [], count: count)
        for row in rows {
            guard let k = row[0].int64, (1...Int64(count)).contains(k) else { continue }
            messages[Int(k) - 1].append(QueuedMessage(
                messageID: row[1].int64 ?? 0, uid: row[2].string ?? "", from: row[3].string ?? "",
                to: (row[4].string ?? "").split(separator: recipientSeparator).map(String.init),
                text: row[5].string ?? "", cid: row[6].string ?? "", sentAt: row[7].int64 ?? 0))
        }
        return messages
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

    @discardableResult
    public func acknowledge(
        appKey: String, userID: String, deviceID: String, messageIDs: [Int64]
    ) async throws(ServerStoreError) -> Int {
        guard !messageIDs.isEmpty else { return 0 }
        let device = DeviceKey(appKey: appKey, userID: userID, deviceID: deviceID)
        return try await read("acknowledge messages of device \(deviceID)") { connection in
            try Self.acknowledge([(device, messageIDs)], on: connection)[0]
        }
    }

    /// Drops acknowledged messages from several devices' queues in one statement (its own
    /// transaction, one round trip); how many entries each device's list removed.
    ///
    /// Several entries go through `PostgresAcknowledgeFunction`, which says how the senders'
    /// usage follows and why its plans read no whole table.
    ///
    /// A lone entry (at light load, every PUBACK's job) has a statement of its own, with no
    /// arrays to join and one usage row, which has no order to keep: it costs PostgreSQL about
    /// half the general one (137 against 250 us with `pgbench`, issue 42).
    static func acknowledge(_ lists: [(device: DeviceKey, messageIDs: [Int64])], on connection: PostgresConnection) throws -> [Int] {
        try acknowledging(lists).map(connection.run) ?? lists.map { _ in 0 }
    }

    /// The statement `acknowledge` runs; nil when the lists hold no entry.
    static func acknowledging(_ lists: [(device: DeviceKey, messageIDs: [Int64])]) -> PostgresStatement<[Int]>? {
        let entries = lists.enumerated().flatMap { k, list in list.messageIDs.map { (list.device, $0, Int64(k + 1)) } }
        guard !entries.isEmpty else { return nil }
        if entries.count == 1, let (device, message, k) = entries.first {
            return PostgresStatement(sql: """
                WITH gone AS (DELETE FROM queue q WHERE q.device = \(deviceSubquery) AND q.message = $4 RETURNING q.device, q.message),
                freed AS (SELECT m.app_key, m.sender, octet_length(m.text) AS size FROM gone g JOIN message m ON m.id = g.message
                          WHERE NOT EXISTS (SELECT 1 FROM queue q WHERE q.message = g.message AND q.device <> g.device)),
                released AS (UPDATE queued_usage u SET messages = u.messages - 1, bytes = u.bytes - f.size
                             FROM freed f WHERE u.app_key = f.app_key AND u.user_id = f.sender RETURNING 1)
                SELECT count(*) FROM gone
                """, parameters: [.text(device.appKey), .text(device.userID), .text(device.deviceID), .integer(message)]) { result in
                var counts = lists.map { _ in 0 }
                counts[Int(k) - 1] = Int(result.rows.first?[0].int64 ?? 0)
                return counts
            }
        }
        return PostgresStatement(sql: PostgresAcknowledgeFunction.call, parameters: [
            texts(entries.map(\.0.appKey)), texts(entries.map(\.0.userID)), texts(entries.map(\.0.deviceID)),
            integers(entries.map(\.1)), integers(entries.map(\.2)),
        ]) { result in
            var counts = lists.map { _ in 0 }
            for row in result.rows {
                guard let k = row[0].int64, (1...Int64(lists.count)).contains(k) else { continue }
                counts[Int(k) - 1] = Int(row[1].int64 ?? 0)
            }
            return counts
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
