import IMStore

extension SQLiteServerStore {
    public func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws(ServerStoreError) -> Bool {
        try await write("record an API nonce of app \(appKey)") { db in
            try db.execute("""
                INSERT INTO api_nonce(app_key, nonce, expires_at) VALUES (?, ?, ?)
                ON CONFLICT(app_key, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE api_nonce.expires_at <= ?
                """, [.text(appKey), .text(nonce), .integer(expiresAt), .integer(now)])
            return db.changes > 0
        }
    }

    public func forgetNonces(expiredAt now: Int64) async throws(ServerStoreError) {
        try await write("forget expired API nonces") { db in
            try db.execute("DELETE FROM api_nonce WHERE expires_at <= ?", [.integer(now)])
        }
    }
}
