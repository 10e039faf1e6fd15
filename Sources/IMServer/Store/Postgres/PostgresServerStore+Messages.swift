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
        let separator = String(Self.recipientSeparator)
        func array(_ values: [String]) -> PostgresValue { .text(PostgresTextArray.literal(values)) }
        let parameters: [PostgresValue] = [
            array(messages.map(\.appKey)), array(uids), array(messages.map(\.from)),
            array(messages.map { message in
                var seen: Set<String> = []
                return message.to.filter { seen.insert($0).inserted }.joined(separator: separator)
            }),
            array(messages.map(\.cid)), array(messages.map(\.text)),
            .text("{" + messages.map { String($0.sentAt) }.joined(separator: ",") + "}"),
            quota.map { .integer(Int64($0.messages)) } ?? .null, quota.map { .integer(Int64($0.bytes)) } ?? .null,
            .text(nodeName),
        ]
        // One statement: its own transaction, and one round trip for the whole batch.
        return try await read("store \(messages.count == 1 ? "a message" : "\(messages.count) messages")") { connection in
            try connection.execute(PostgresStoreFunction.call, parameters).rows.map { row in
                let users = PostgresTextArray.parse(row[6].string), devices = PostgresTextArray.parse(row[7].string)
                let over = row[4].int64.map { QueueUsage(messages: Int($0), bytes: Int(row[5].int64 ?? 0)) }
                return StoredMessageResult(
                    uid: row[1].string ?? "", messageID: row[0].int64 ?? 0, sentAt: row[2].int64 ?? 0,
                    isDuplicate: row[3].bool ?? false,
                    deliveries: zip(users, devices).map { Delivery(userID: $0, deviceID: $1) }, overQuota: over)
            }
        }
    }

    /// Sends `notice` to every node (itself included) when the transaction commits.
    static func notify(_ connection: PostgresConnection, _ notice: ClusterNotice) throws {
        _ = try connection.execute("SELECT pg_notify($1, $2)", [.text(channel), .text(notice.encoded())])
    }
}
