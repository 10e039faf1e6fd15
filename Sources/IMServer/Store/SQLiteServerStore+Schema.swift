import IMStore

extension SQLiteServerStore {
    /// The schema's history; append a migration, never edit one that has shipped.
    ///
    /// Layout choices, for the hot paths (one message = one `message` row and one `queue` row
    /// per recipient device):
    /// - `device` interns (app key, user, device id) to an integer, so a queue entry is two
    ///   integers and `queue`'s primary key (device, message) serves `pending` in store order
    ///   and `acknowledge` directly. A user with no device yet gets one placeholder row with
    ///   device id '' (never a valid id); the user's first real device takes that row over,
    ///   and with it every message queued so far, by a single UPDATE.
    /// - `message.id` follows time: at least `sent_at * idsPerMillisecond`, and above every
    ///   id stored (see `SQL.insertMessage`). So ids only grow and are never reused after a
    ///   purge (the broker may hold ids of messages in flight; `message_id_floor` keeps the
    ///   highest id a purge deleted, for a clock set back), and the retention purge finds
    ///   expired messages by id, the table's own order. v5 dropped what that made redundant,
    ///   each a page written at every commit: AUTOINCREMENT's `sqlite_sequence` row and the
    ///   `message_age` index (BENCHMARKS.md, issue 17's sixth step).
    /// - `message_cid` makes resends (same app, sender and cid) an `ON CONFLICT DO NOTHING`;
    ///   `queue_message` serves the purge's deletion of queue entries.
    ///   Every index is written at every message, on the loop (see `SQLiteMessageLane`), so
    ///   there is none that no query reads (v4 dropped the one on uids).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.register("v1: apps, users, devices, messages, queues") { db in
            try db.executeScript("""
                CREATE TABLE app_override(
                    app_key TEXT PRIMARY KEY,
                    blocked INTEGER,
                    secret TEXT,
                    secret_rotated_at INTEGER
                ) WITHOUT ROWID;
                CREATE TABLE user_state(
                    app_key TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    blocked_until INTEGER,
                    deactivated INTEGER NOT NULL DEFAULT 0,
                    tokens_invalid_before INTEGER,
                    PRIMARY KEY (app_key, user_id)
                ) WITHOUT ROWID;
                CREATE TABLE device(
                    id INTEGER PRIMARY KEY,
                    app_key TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    device_id TEXT NOT NULL,
                    platform TEXT NOT NULL,
                    registered_at INTEGER NOT NULL,
                    UNIQUE (app_key, user_id, device_id)
                );
                CREATE TABLE message(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    app_key TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    recipients TEXT NOT NULL,
                    cid TEXT NOT NULL,
                    text TEXT NOT NULL,
                    sent_at INTEGER NOT NULL
                );
                CREATE UNIQUE INDEX message_cid ON message(app_key, sender, cid);
                CREATE UNIQUE INDEX message_uid ON message(uid);
                CREATE INDEX message_age ON message(app_key, sent_at);
                CREATE TABLE queue(
                    device INTEGER NOT NULL,
                    message INTEGER NOT NULL,
                    PRIMARY KEY (device, message)
                ) WITHOUT ROWID;
                CREATE INDEX queue_message ON queue(message);
                """)
        }
        // What each sender has stored and not delivered, kept as counters so the quota check
        // of every PUBLISH is one primary-key read (see `QueueQuota`).
        migrator.register("v2: queued usage per sender") { db in
            try db.executeScript("""
                CREATE TABLE queued_usage(
                    app_key TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    messages INTEGER NOT NULL,
                    bytes INTEGER NOT NULL,
                    PRIMARY KEY (app_key, user_id)
                ) WITHOUT ROWID;
                INSERT INTO queued_usage
                    SELECT app_key, sender, count(*), sum(length(CAST(text AS BLOB))) FROM message m
                    WHERE EXISTS (SELECT 1 FROM queue WHERE message = m.id) GROUP BY app_key, sender;
                """)
        }
        // The server API's nonces, so that a replay is refused after a restart too.
        migrator.register("v3: api nonces") { db in
            try db.executeScript("""
                CREATE TABLE api_nonce(
                    app_key TEXT NOT NULL,
                    nonce TEXT NOT NULL,
                    expires_at INTEGER NOT NULL,
                    PRIMARY KEY (app_key, nonce)
                ) WITHOUT ROWID;
                CREATE INDEX api_nonce_expiry ON api_nonce(expires_at);
                """)
        }
        // Nothing looks a message up by uid, and its uniqueness comes from 80 random bits per
        // millisecond; the index cost every message a page of the WAL, about a seventh of it.
        migrator.register("v4: no index on message uids") { db in
            try db.executeScript("DROP INDEX IF EXISTS message_uid")
        }
        // Ids that follow time replace AUTOINCREMENT (which only a new table can drop) and the
        // index on (app, time). Existing ids are kept: new ones start above them and above the
        // last one AUTOINCREMENT handed out, read before DROP TABLE takes its counter away.
        // Edited once shipped, against the migrator's rule, because only this step can read that
        // counter: it first read it after the DROP. Files it migrated then keep a floor of 0,
        // which ids that follow time (far above a counter's) make harmless.
        migrator.register("v5: message ids follow time") { db in
            try db.executeScript("""
                CREATE TABLE message_v5(
                    id INTEGER PRIMARY KEY,
                    app_key TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    sender TEXT NOT NULL,
                    recipients TEXT NOT NULL,
                    cid TEXT NOT NULL,
                    text TEXT NOT NULL,
                    sent_at INTEGER NOT NULL
                );
                INSERT INTO message_v5 SELECT id, app_key, uid, sender, recipients, cid, text, sent_at FROM message;
                CREATE TABLE message_id_floor(one INTEGER PRIMARY KEY CHECK (one = 1), id INTEGER NOT NULL);
                INSERT INTO message_id_floor SELECT 1, coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'message';
                DROP TABLE message;
                ALTER TABLE message_v5 RENAME TO message;
                CREATE UNIQUE INDEX message_cid ON message(app_key, sender, cid);
                """)
        }
        return migrator
    }()
}
