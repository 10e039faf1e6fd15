extension PostgresCluster {
    /// The nodes whose heartbeat is younger than `deadAfter`, this one included.
    func liveNodeCount(now: Int64) async throws(ServerStoreError) -> Int {
        try await store.read("count the live nodes") { connection in
            Int(try connection.execute("SELECT count(*) FROM node WHERE seen_at >= $1", [.integer(now - Self.deadAfter)])
                .rows.first?[0].int64 ?? 0)
        }
    }
}
