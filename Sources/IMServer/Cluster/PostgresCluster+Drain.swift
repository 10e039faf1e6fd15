extension PostgresCluster {
    /// Records where clients reach this node (a Server Reference), so that another node that
    /// stops can send its clients here.
    func advertise(_ reference: String) async throws(ServerStoreError) {
        address.withLock { $0 = reference }
        let node = nodeName
        _ = try await store.write("advertise node \(node)") { connection in
            try connection.execute("UPDATE node SET address = $2 WHERE name = $1", [.text(node), .text(reference)])
        }
    }

    /// The Server References of the other live nodes that advertise one, by node name.
    func otherNodeReferences(now: Int64) async throws(ServerStoreError) -> [String] {
        let node = nodeName
        return try await store.read("read the other nodes' addresses") { connection in
            try connection.execute("""
                SELECT address FROM node WHERE name <> $1 AND seen_at >= $2 AND address <> '' ORDER BY name
                """, [.text(node), .integer(now - Self.deadAfter)]).rows.compactMap { $0[0].string }
        }
    }
}
