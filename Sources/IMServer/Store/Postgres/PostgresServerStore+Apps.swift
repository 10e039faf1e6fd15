import IMEncoding
import IMPostgres
import IMProtocol

extension PostgresServerStore {
    public func appOverrides() async throws(ServerStoreError) -> [String: AppOverride] {
        try await read("read app overrides") { connection in
            var overrides: [String: AppOverride] = [:]
            for row in try connection.execute("SELECT app_key, blocked, secret, secret_rotated_at FROM app_override").rows {
                overrides[row[0].string ?? ""] = AppOverride(blocked: row[1].bool, secret: row[2].string, secretRotatedAt: row[3].int64)
            }
            return overrides
        }
    }

    public func setAppBlocked(_ appKey: String, _ blocked: Bool) async throws(ServerStoreError) {
        try await write("set app \(appKey) blocked") { connection in
            _ = try connection.execute("""
                INSERT INTO app_override(app_key, blocked) VALUES ($1, $2)
                ON CONFLICT (app_key) DO UPDATE SET blocked = excluded.blocked
                """, [.text(appKey), .boolean(blocked)])
            try Self.bumpChangeCounter(connection)
        }
        ownChanges.add(1, ordering: .relaxed)
    }

    public func rotateSecret(_ appKey: String, now: Int64) async throws(ServerStoreError) -> String {
        let secret: String
        do {
            secret = Hex.encode(try Crypto.randomBytes(16))
        } catch {
            throw .failed(operation: "rotate the secret of app \(appKey)", path: location, reason: "\(error)")
        }
        try await write("rotate the secret of app \(appKey)") { connection in
            _ = try connection.execute("""
                INSERT INTO app_override(app_key, secret, secret_rotated_at) VALUES ($1, $2, $3)
                ON CONFLICT (app_key) DO UPDATE SET secret = excluded.secret, secret_rotated_at = excluded.secret_rotated_at
                """, [.text(appKey), .text(secret), .integer(now)])
            try Self.bumpChangeCounter(connection)
        }
        ownChanges.add(1, ordering: .relaxed)
        return secret
    }

    /// Moves the counter every node polls, so each reloads the overrides within a second
    /// (`externalChangeCounter` leaves out this store's own moves, as SQLite's does).
    private static func bumpChangeCounter(_ connection: PostgresConnection) throws {
        _ = try connection.execute("UPDATE change_counter SET value = value + 1 WHERE id = 1")
    }
}
