import IMPostgres

extension PostgresServerStore {
    /// One statement, so two nodes given the same nonce at once cannot both accept it.
    public func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws(ServerStoreError) -> Bool {
        try await read("record an API nonce of app \(appKey)") { connection in
            try connection.execute("""
                INSERT INTO api_nonce(app_key, nonce, expires_at) VALUES ($1, $2, $3)
                ON CONFLICT (app_key, nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE api_nonce.expires_at <= $4
                """, [.text(appKey), .text(nonce), .integer(expiresAt), .integer(now)]).affectedRows > 0
        }
    }

    public func forgetNonces(expiredAt now: Int64) async throws(ServerStoreError) {
        try await read("forget expired API nonces") { connection in
            _ = try connection.execute("DELETE FROM api_nonce WHERE expires_at <= $1", [.integer(now)])
        }
    }
}
