import IMPostgres

extension PostgresServerStore {
    public func userStates(_ users: [(appKey: String, userID: String)]) async throws(ServerStoreError) -> [UserState] {
        guard !users.isEmpty else { return [] }
        let (apps, ids) = (PostgresTextArray.literal(users.map(\.appKey)), PostgresTextArray.literal(users.map(\.userID)))
        // One round trip for the batch: the users as two arrays, joined on the primary key;
        // planned at each call, as the devices' look-up is (`register`).
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

    public func block(appKey: String, userIDs: [String], until: Int64, requestedAt: Int64) async throws(ServerStoreError) {
        try await standing("block", appKey, userIDs, column: "blocked_until", value: .integer(until), requestedAt: requestedAt)
    }

    public func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await standing("unblock", appKey, userIDs, column: "blocked_until", value: .null, requestedAt: requestedAt)
    }

    public func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await standing("deactivate", appKey, userIDs, column: "deactivated", value: .boolean(true), requestedAt: requestedAt)
    }

    public func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await standing("reactivate", appKey, userIDs, column: "deactivated", value: .boolean(false), requestedAt: requestedAt)
    }

    public func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws(ServerStoreError) {
        try await upsert("expire tokens of", appKey, userIDs, column: "tokens_invalid_before", value: .integer(before),
                         merge: "greatest(user_state.tokens_invalid_before, excluded.tokens_invalid_before)")
    }

    /// Sets `column` (`blocked_until` or `deactivated`) to `value` for every user in one
    /// transaction, unless a call received later already set it: the column's `_at` twin
    /// (`blocked_at`, `deactivated_at`) keeps when the call that set it was received. A call
    /// that waited on a cut-off link, its caller long gone to another node, would otherwise
    /// undo the call made after it (a deactivation lifted, then carried out for good).
    private func standing(
        _ verb: String, _ appKey: String, _ userIDs: [String], column: String, value: PostgresValue, requestedAt: Int64
    ) async throws(ServerStoreError) {
        try Self.validate(userIDs: userIDs)
        let stamp = column == "deactivated" ? "deactivated_at" : "blocked_at"
        // `column` and `stamp` are literals of this file, never input. Equal times: the later write wins.
        let sql = """
            INSERT INTO user_state(app_key, user_id, \(column), \(stamp)) VALUES ($1, $2, $3, $4)
            ON CONFLICT (app_key, user_id) DO UPDATE SET \(column) = excluded.\(column), \(stamp) = excluded.\(stamp)
            WHERE user_state.\(stamp) <= excluded.\(stamp)
            """
        try await write("\(verb) users of app \(appKey)") { connection in
            for userID in userIDs {
                _ = try connection.execute(sql, [.text(appKey), .text(userID), value, .integer(requestedAt)])
            }
        }
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
