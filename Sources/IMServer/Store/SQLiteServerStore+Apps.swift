import IMEncoding
import IMProtocol
import IMStore

extension SQLiteServerStore {
    /// Every app override, by app key.
    public func appOverrides() async throws(ServerStoreError) -> [String: AppOverride] {
        try await read("read app overrides") { db in
            var overrides: [String: AppOverride] = [:]
            for row in try db.fetchAll("SELECT app_key, blocked, secret, secret_rotated_at FROM app_override") {
                overrides[row[0].string ?? ""] = AppOverride(
                    blocked: row[1].int64.map { $0 != 0 }, secret: row[2].string, secretRotatedAt: row[3].int64)
            }
            return overrides
        }
    }

    /// Blocks or unblocks `appKey`, whatever its configuration says.
    ///
    /// The store does not know which apps are configured: check the key against the
    /// configuration first.
    public func setAppBlocked(_ appKey: String, _ blocked: Bool) async throws(ServerStoreError) {
        try await write("set app \(appKey) blocked") { db in
            try db.execute("""
                INSERT INTO app_override(app_key, blocked) VALUES (?, ?)
                ON CONFLICT(app_key) DO UPDATE SET blocked = excluded.blocked
                """, [.text(appKey), DatabaseValue(blocked)])
        }
    }

    /// Gives `appKey` a new random secret (32 lowercase hex digits, 128 bits) and returns it.
    ///
    /// Tokens and API signatures made with the old secret stop verifying as soon as the
    /// server reloads the overrides.
    public func rotateSecret(_ appKey: String, now: Int64) async throws(ServerStoreError) -> String {
        let secret: String
        do {
            secret = Hex.encode(try Crypto.randomBytes(16))
        } catch {
            throw .failed(operation: "rotate the secret of app \(appKey)", path: path, reason: "\(error)")
        }
        try await write("rotate the secret of app \(appKey)") { db in
            try db.execute("""
                INSERT INTO app_override(app_key, secret, secret_rotated_at) VALUES (?, ?, ?)
                ON CONFLICT(app_key) DO UPDATE SET secret = excluded.secret, secret_rotated_at = excluded.secret_rotated_at
                """, [.text(appKey), .text(secret), .integer(now)])
        }
        return secret
    }
}
