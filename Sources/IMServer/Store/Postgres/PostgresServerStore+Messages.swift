import IMPostgres

extension PostgresServerStore {
    /// The channel nodes LISTEN on; see `ClusterNotice`.
    public static let channel = "imserver"

    public func storeMessages(_ messages: [NewMessage], quota: QueueQuota?) async throws(ServerStoreError) -> [StoredMessageResult] {
        guard !messages.isEmpty else { return [] }
        for message in messages {
            try Self.validate(userIDs: [message.from] + message.to)
        }
        let uids = try newUIDs(sentAt: messages.map(\.sentAt))
        let node = nodeName
        return try await write("store \(messages.count == 1 ? "a message" : "\(messages.count) messages")") { connection in
            try Self.lockWrites(connection)
            var writer = PostgresMessageWriter(connection: connection)
            let results = try zip(messages, uids).map { message, uid in try writer.store(message, uid: uid, quota: quota) }
            // Sent at commit, so the other nodes look for the messages only once they are there.
            var byApp: [String: [Delivery]] = [:]
            for (message, result) in zip(messages, results) where !result.isDuplicate {
                byApp[message.appKey, default: []] += result.deliveries
            }
            for (appKey, deliveries) in byApp where !deliveries.isEmpty {
                for notice in ClusterNotice.deliveries(node: node, appKey: appKey, deliveries) {
                    try Self.notify(connection, notice)
                }
            }
            return results
        }
    }

    /// Sends `notice` to every node (itself included) when the transaction commits.
    static func notify(_ connection: PostgresConnection, _ notice: ClusterNotice) throws {
        _ = try connection.execute("SELECT pg_notify($1, $2)", [.text(channel), .text(notice.encoded())])
    }
}
