import IMStore

extension SessionDatabase {
    /// The schema's history; append a migration, never edit one that has shipped, and keep
    /// the current schema in step (`SessionDatabaseTests` compares the two).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.register("v1: messages, conversations, connection log") { db in
            try db.executeScript(messageTable + conversationTable + connectionLogTable)
        }
        // Nothing read the conversation table (history comes from messages by peer), and
        // keeping it current cost a page written twice, journal and file, per message.
        migrator.register("v2: no conversation table") { db in
            try db.executeScript("DROP TABLE conversation")
        }
        // A new file: v2's schema at once, without creating v1's table only to drop it.
        migrator.registerCurrentSchema { db in
            try db.executeScript(messageTable + connectionLogTable)
        }
        return migrator
    }()

    private static let messageTable = """
        CREATE TABLE message(
            id INTEGER PRIMARY KEY,
            uid TEXT UNIQUE,
            cid TEXT,
            direction INTEGER NOT NULL,
            peer TEXT NOT NULL,
            text TEXT NOT NULL,
            sent_at INTEGER NOT NULL,
            state INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX message_outgoing_cid ON message(cid) WHERE direction = 1;
        CREATE INDEX message_peer ON message(peer, id);

        """

    private static let conversationTable = """
        CREATE TABLE conversation(
            peer TEXT PRIMARY KEY,
            last_message_id INTEGER NOT NULL,
            last_at INTEGER NOT NULL,
            unread INTEGER NOT NULL DEFAULT 0
        );

        """

    private static let connectionLogTable = """
        CREATE TABLE connection_log(
            id INTEGER PRIMARY KEY,
            at INTEGER NOT NULL,
            status INTEGER NOT NULL,
            code INTEGER,
            detail TEXT NOT NULL DEFAULT ''
        );

        """
}
