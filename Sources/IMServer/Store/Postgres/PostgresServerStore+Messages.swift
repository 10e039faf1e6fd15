import IMPostgres

extension PostgresServerStore {
    /// The channel nodes LISTEN on; see `ClusterNotice`.
    public static let channel = "imserver"

    public func storeMessages(_ messages: [NewMessage], quota: QueueQuota?) async throws(ServerStoreError) -> [StoredMessageResult] {
        guard !messages.isEmpty else { return [] }
        let uids = try prepare(messages)
        let node = nodeName
        return try await read(Self.storingOperation(messages)) { connection in
            try Self.store(messages, uids: uids, quota: quota, node: node, on: connection)
        }
    }

    /// Stores `messages` with their `uids` (from `prepare`) in one statement, its own
    /// transaction and one round trip (`PostgresStoreFunction`); results in their order.
    /// Without `notify` the function sends no notices: the caller sends them (`NodeLinks`).
    ///
    /// The function locks the recipients in one order everywhere, then each message's sender's
    /// `queued_usage` row in the messages' order: messages of several senders are stored in
    /// the order of their (app, sender) bytes, as `acknowledge` locks those rows, so that two
    /// transactions never wait for each other's rows (a deadlock costs PostgreSQL's
    /// deadlock_timeout, 1 s, before one is aborted). Each sender's messages keep their order.
    static func store(
        _ messages: [NewMessage], uids: [String], quota: QueueQuota?, node: String, notify: Bool = true,
        on connection: PostgresConnection
    ) throws -> [StoredMessageResult] {
        try connection.run(storing(messages, uids: uids, quota: quota, node: node, notify: notify))
    }

    /// The statement `store` runs.
    static func storing(
        _ messages: [NewMessage], uids: [String], quota: QueueQuota?, node: String, notify: Bool
    ) -> PostgresStatement<[StoredMessageResult]> {
        let order = messages.indices.sorted { left, right in
            let a = messages[left], b = messages[right]
            if a.appKey != b.appKey { return a.appKey.utf8.lexicographicallyPrecedes(b.appKey.utf8) }
            if a.from != b.from { return a.from.utf8.lexicographicallyPrecedes(b.from.utf8) }
            return left < right
        }
        let separator = String(recipientSeparator)
        let sorted = order.map { messages[$0] }
        let parameters: [PostgresValue] = [
            texts(sorted.map(\.appKey)), texts(order.map { uids[$0] }), texts(sorted.map(\.from)),
            texts(sorted.map { message in
                var seen: Set<String> = []
                return message.to.filter { seen.insert($0).inserted }.joined(separator: separator)
            }),
            texts(sorted.map(\.cid)), texts(sorted.map(\.text)),
            integers(sorted.map(\.sentAt)),
            quota.map { .integer(Int64($0.messages)) } ?? .null, quota.map { .integer(Int64($0.bytes)) } ?? .null,
            .text(node), .boolean(notify),
        ]
        return PostgresStatement(sql: PostgresStoreFunction.call, parameters: parameters) { result in
            try answers(result.rows, messages: messages, order: order)
        }
    }

    /// The store function's rows (in `order`, the sorted messages') as results in the messages' order.
    private static func answers(_ rows: [PostgresRow], messages: [NewMessage], order: [Int]) throws -> [StoredMessageResult] {
        // One row per message, in order: the lane hands each caller a slice of them.
        guard rows.count == messages.count else {
            throw PostgresError(kind: .query, message: "the store function answered \(rows.count) rows for \(messages.count) messages")
        }
        var results = [StoredMessageResult?](repeating: nil, count: messages.count)
        for (row, index) in zip(rows, order) {
            let users = PostgresTextArray.parse(row[6].string), devices = PostgresTextArray.parse(row[7].string)
            var previous = PostgresTextArray.parse(row[8].string).map { Int64($0) ?? .max }
            // Unreadable, only a read can tell what is missing.
            if previous.count != users.count { previous = users.map { _ in .max } }
            let over = row[4].int64.map { QueueUsage(messages: Int($0), bytes: Int(row[5].int64 ?? 0)) }
            results[index] = StoredMessageResult(
                uid: row[1].string ?? "", messageID: row[0].int64 ?? 0, sentAt: row[2].int64 ?? 0,
                isDuplicate: row[3].bool ?? false,
                deliveries: zip(zip(users, devices), previous).map { Delivery(userID: $0.0, deviceID: $0.1, previous: $1) },
                overQuota: over)
        }
        return results.compactMap { $0 }
    }

    /// Sends these notices (`ClusterNotice.encoded()`), in order, to every node (itself
    /// included) when the transaction commits.
    static func notify(_ connection: PostgresConnection, _ payloads: [String]) throws {
        _ = try connection.execute("SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, k) ORDER BY k",
                                   [.text(channel), texts(payloads)])
    }
}
