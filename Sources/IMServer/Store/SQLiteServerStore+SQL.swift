extension SQLiteServerStore {
    /// The statements of the hot paths (each message, each login, each acknowledgement, the purge),
    /// kept in one place so a test can check every one of them with `EXPLAIN QUERY PLAN`.
    enum SQL {
        /// The device row of (app, user, device), as a subquery; `?` three times.
        private static let deviceSubquery = "(SELECT id FROM device WHERE app_key = ? AND user_id = ? AND device_id = ?)"

        static let userState = """
            SELECT blocked_until, deactivated, tokens_invalid_before FROM user_state WHERE app_key = ? AND user_id = ?
            """
        static let deviceRows = "SELECT id, device_id FROM device WHERE app_key = ? AND user_id = ?"
        static let insertDevice = """
            INSERT INTO device(app_key, user_id, device_id, platform, registered_at) VALUES (?, ?, ?, ?, ?)
            """
        /// How many ids each millisecond of `sent_at` spans: a message's id is at least its
        /// `sent_at` times this, and one more than the largest ever handed out (stored, or
        /// purged: `message_id_floor`) when that is higher (a burst of more in one millisecond,
        /// or a clock set back). Below 2^53 until 2248.
        static let idsPerMillisecond: Int64 = 1024

        /// The lowest id of millisecond `time`: `time * idsPerMillisecond`, held at Int64's
        /// ends for a time too far from the epoch.
        static func firstID(ofMillisecond time: Int64) -> Int64 {
            let (id, overflow) = time.multipliedReportingOverflow(by: idsPerMillisecond)
            return overflow ? (time < 0 ? .min : .max) : id
        }
        /// The message's id comes first, then its columns; the id is computed here, where the
        /// write lock makes it unique (the lane and the store's queue both insert).
        static let insertMessage = """
            INSERT INTO message(id, app_key, uid, sender, recipients, cid, text, sent_at)
            VALUES (max(coalesce((SELECT max(id) FROM message), 0) + 1, (SELECT id FROM message_id_floor WHERE one = 1) + 1,
                        ?7 * \(idsPerMillisecond)),
                    ?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT(app_key, sender, cid) DO NOTHING
            """
        /// A later message of the same transaction, whose id `MessageWriter` computes (`?8`):
        /// the larger of one past the last one stored and `sent_at * idsPerMillisecond`, the same
        /// as `insertMessage` finds, since the write lock keeps others from storing in between.
        static let insertNextMessage = """
            INSERT INTO message(id, app_key, uid, sender, recipients, cid, text, sent_at)
            VALUES (?8, ?1, ?2, ?3, ?4, ?5, ?6, ?7)
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
        /// Every queue entry: a scan of the smallest index, for a scrape, not a message's path.
        static let queuedDeliveryCount = "SELECT count(*) FROM queue"
        static let deleteQueueEntry = "DELETE FROM queue WHERE device = ? AND message = ?"
        /// The app's messages older than a time: those whose id is below the time's first
        /// (`?1`, see `idsPerMillisecond`) and whose `sent_at` is below it (`?3`); `?2` the app.
        /// Found along the table's own order from its start, so a purge reads the messages
        /// older than its time and no more; `+app_key` keeps SQLite off `message_cid`, which
        /// would read all of the app's messages instead. The id alone would do for ids made
        /// since v5; `sent_at` keeps older ones (small counters, below every time's first id)
        /// until their own time. A message whose id ran ahead of its time goes at a later
        /// purge, once the id's time has expired too.
        private static let expired = "id < ?1 AND +app_key = ?2 AND sent_at < ?3"
        static let purgeQueue = "DELETE FROM queue WHERE message IN (SELECT id FROM message WHERE \(expired))"
        static let purgeMessages = "DELETE FROM message WHERE \(expired)"
        /// Before the purge deletes them: no later message gets the id of one it deletes.
        static let raiseIDFloor = """
            UPDATE message_id_floor SET id = max(id, coalesce((SELECT max(id) FROM message WHERE \(expired)), 0)) WHERE one = 1
            """
        static let queuedUsage = "SELECT messages, bytes FROM queued_usage WHERE app_key = ? AND user_id = ?"
        /// A change of a sender's usage, of either sign: what a transaction stored less what it released.
        static let addQueuedUsage = """
            INSERT INTO queued_usage(app_key, user_id, messages, bytes) VALUES (?, ?, ?, ?)
            ON CONFLICT(app_key, user_id) DO UPDATE SET messages = messages + excluded.messages, bytes = bytes + excluded.bytes
            """
        /// The app, sender and size of message `?1` once no device's queue holds it, to release
        /// from the sender's usage; no row while a queue still does.
        static let unqueuedMessage = """
            SELECT app_key, sender, length(CAST(text AS BLOB)) FROM message
            WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM queue WHERE message = ?1)
            """
        /// Before a purge: the usage of the messages it takes from queues, by sender.
        static let purgeQueuedUsage = """
            UPDATE queued_usage SET messages = queued_usage.messages - gone.count, bytes = queued_usage.bytes - gone.size
            FROM (SELECT sender, count(*) AS count, sum(length(CAST(text AS BLOB))) AS size FROM message m
                  WHERE \(expired) AND EXISTS (SELECT 1 FROM queue WHERE message = m.id)
                  GROUP BY sender) AS gone
            WHERE queued_usage.app_key = ?2 AND queued_usage.user_id = gone.sender
            """

        /// Every statement above, by name.
        static let hotPaths: [(name: String, sql: String)] = [
            ("userState", userState), ("deviceRows", deviceRows),
            ("insertDevice", insertDevice), ("insertMessage", insertMessage), ("insertNextMessage", insertNextMessage), ("firstCopy", firstCopy),
            ("insertQueueEntry", insertQueueEntry), ("pending", pending), ("pendingCount", pendingCount),
            ("deleteQueueEntry", deleteQueueEntry), ("purgeQueue", purgeQueue), ("purgeMessages", purgeMessages), ("raiseIDFloor", raiseIDFloor),
            ("queuedUsage", queuedUsage), ("addQueuedUsage", addQueuedUsage),
            ("unqueuedMessage", unqueuedMessage),
        ]
        // Not listed: `purgeQueuedUsage` groups the expiring messages (found by id) by sender
        // in a temporary b-tree, once a minute, as it must.
    }
}
