extension ServerStore {
    /// The statements of the hot paths (each message, each login, each acknowledgement, the purge),
    /// kept in one place so a test can check every one of them with `EXPLAIN QUERY PLAN`.
    enum SQL {
        /// The device row of (app, user, device), as a subquery; `?` three times.
        private static let deviceSubquery = "(SELECT id FROM device WHERE app_key = ? AND user_id = ? AND device_id = ?)"

        static let userState = """
            SELECT blocked_until, deactivated, tokens_invalid_before FROM user_state WHERE app_key = ? AND user_id = ?
            """
        static let deviceRows = "SELECT id, device_id FROM device WHERE app_key = ? AND user_id = ?"
        static let deviceRowID = "SELECT id FROM device WHERE app_key = ? AND user_id = ? AND device_id = ?"
        static let insertDevice = """
            INSERT INTO device(app_key, user_id, device_id, platform, registered_at) VALUES (?, ?, ?, ?, ?)
            """
        static let insertMessage = """
            INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(app_key, sender, cid) DO NOTHING
            """
        static let firstCopy = "SELECT id, uid, sent_at FROM message WHERE app_key = ? AND sender = ? AND cid = ?"
        static let insertQueueEntry = "INSERT INTO queue(device, message) VALUES (?, ?)"
        static let pending = """
            SELECT m.id, m.uid, m.sender, m.recipients, m.text, m.cid, m.sent_at
            FROM queue q JOIN message m ON m.id = q.message
            WHERE q.device = \(deviceSubquery) AND q.message > ?
            ORDER BY q.message LIMIT ?
            """
        static let pendingCount = "SELECT count(*) FROM queue WHERE device = \(deviceSubquery)"
        static let deleteQueueEntry = "DELETE FROM queue WHERE device = ? AND message = ?"
        static let purgeQueue = "DELETE FROM queue WHERE message IN (SELECT id FROM message WHERE app_key = ? AND sent_at < ?)"
        static let purgeMessages = "DELETE FROM message WHERE app_key = ? AND sent_at < ?"

        /// Every statement above, by name.
        static let hotPaths: [(name: String, sql: String)] = [
            ("userState", userState), ("deviceRows", deviceRows), ("deviceRowID", deviceRowID),
            ("insertDevice", insertDevice), ("insertMessage", insertMessage), ("firstCopy", firstCopy),
            ("insertQueueEntry", insertQueueEntry), ("pending", pending), ("pendingCount", pendingCount),
            ("deleteQueueEntry", deleteQueueEntry), ("purgeQueue", purgeQueue), ("purgeMessages", purgeMessages),
        ]
    }
}
