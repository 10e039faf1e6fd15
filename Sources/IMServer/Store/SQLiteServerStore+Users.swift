import IMProtocol
import IMStore

extension SQLiteServerStore {
    /// The states of several users in one read, in the order asked.
    public func userStates(_ users: [(appKey: String, userID: String)]) async throws(ServerStoreError) -> [UserState] {
        try await read("read the state of \(users.count) users") { db in
            try users.map { user in
                guard let row = try db.fetchOne(SQL.userState, [.text(user.appKey), .text(user.userID)]) else { return .initial }
                return UserState(blockedUntil: row[0].int64, deactivated: row[1].int64 == 1, tokensInvalidBefore: row[2].int64)
            }
        }
    }

    /// Blocks each user until `until` (ms since the epoch), replacing any earlier block.
    ///
    /// `requestedAt` is not needed here: one process writes the file, each call in the order
    /// the requests came, with nothing between them that could hold one up for long.
    public func block(appKey: String, userIDs: [String], until: Int64, requestedAt: Int64) async throws(ServerStoreError) {
        try await upsert("block", appKey, userIDs, column: "blocked_until", value: .integer(until))
    }

    /// Ends each user's block; a user not blocked is left as is.
    public func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await upsert("unblock", appKey, userIDs, column: "blocked_until", value: .null)
    }

    /// Deactivates each user: logins are refused until `reactivate`.
    public func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await upsert("deactivate", appKey, userIDs, column: "deactivated", value: 1)
    }

    /// Undoes `deactivate`.
    public func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws(ServerStoreError) {
        try await upsert("reactivate", appKey, userIDs, column: "deactivated", value: 0)
    }

    /// Expires each user's tokens issued before `before` (ms since the epoch).
    ///
    /// The time only moves forward: an earlier `before` than one already recorded changes
    /// nothing, so tokens once expired stay expired.
    public func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws(ServerStoreError) {
        try await upsert("expire tokens of", appKey, userIDs, column: "tokens_invalid_before", value: .integer(before),
                         merge: "max(coalesce(tokens_invalid_before, excluded.tokens_invalid_before), excluded.tokens_invalid_before)")
    }

    /// Sets `column` to `value` for every user in one transaction, creating missing rows.
    private func upsert(
        _ verb: String, _ appKey: String, _ userIDs: [String], column: String, value: DatabaseValue, merge: String? = nil
    ) async throws(ServerStoreError) {
        try Self.validate(userIDs: userIDs)
        // `column` and `merge` are literals of this file, never input.
        let sql = """
            INSERT INTO user_state(app_key, user_id, \(column)) VALUES (?, ?, ?)
            ON CONFLICT(app_key, user_id) DO UPDATE SET \(column) = \(merge ?? "excluded.\(column)")
            """
        try await write("\(verb) users of app \(appKey)") { db in
            for userID in userIDs {
                try db.execute(sql, [.text(appKey), .text(userID), value])
            }
        }
    }

}
