import IMPostgres

extension PostgresServerStore {
    public func userStates(_ users: [(appKey: String, userID: String)]) async throws(ServerStoreError) -> [UserState] {
        guard !users.isEmpty else { return [] }
        let (apps, ids) = (PostgresTextArray.literal(users.map(\.appKey)), PostgresTextArray.literal(users.map(\.userID)))
        // One round trip for the batch: the users as two arrays, joined on the primary key.
        return try await read("read the state of \(users.count) users") { connection in
            let rows = try connection.execute("""
                SELECT s.app_key || chr(1) || s.user_id, s.blocked_until, s.deactivated, s.tokens_invalid_before
                FROM unnest($1::text[], $2::text[]) AS k(app_key, user_id)
                JOIN user_state s ON s.app_key = k.app_key AND s.user_id = k.user_id
                """, [.text(apps), .text(ids)]).rows
            var states: [String: UserState] = [:]
            for row in rows {
                states[row[0].string ?? ""] = UserState(
                    blockedUntil: row[1].int64, deactivated: row[2].bool ?? false, tokensInvalidBefore: row[3].int64)
            }
            return users.map { states[$0.appKey + "\u{1}" + $0.userID] ?? .initial }
        }
    }

    public func block(appKey: String, userIDs: [String], until: Int64) async throws(ServerStoreError) {
        try await upsert("block", appKey, userIDs, column: "blocked_until", value: .integer(until))
    }

    public func unblock(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await upsert("unblock", appKey, userIDs, column: "blocked_until", value: .null)
    }

    public func deactivate(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await upsert("deactivate", appKey, userIDs, column: "deactivated", value: .boolean(true))
    }

    public func reactivate(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await upsert("reactivate", appKey, userIDs, column: "deactivated", value: .boolean(false))
    }

    public func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws(ServerStoreError) {
        try await upsert("expire tokens of", appKey, userIDs, column: "tokens_invalid_before", value: .integer(before),
                         merge: "greatest(user_state.tokens_invalid_before, excluded.tokens_invalid_before)")
    }

    /// Sets `column` to `value` for every user in one transaction, creating missing rows.
    private func upsert(
        _ verb: String, _ appKey: String, _ userIDs: [String], column: String, value: PostgresValue, merge: String? = nil
    ) async throws(ServerStoreError) {
        try Self.validate(userIDs: userIDs)
        // `column` and `merge` are literals of this file, never input.
        let sql = """
            INSERT INTO user_state(app_key, user_id, \(column)) VALUES ($1, $2, $3)
            ON CONFLICT (app_key, user_id) DO UPDATE SET \(column) = \(merge ?? "excluded.\(column)")
            """
        try await write("\(verb) users of app \(appKey)") { connection in
            for userID in userIDs {
                _ = try connection.execute(sql, [.text(appKey), .text(userID), value])
            }
        }
    }
}
