import IMPostgres

/// The PostgreSQL schema's history, applied at start by whichever node comes first.
///
/// Append a migration, never edit one that has shipped. Nodes starting together serialize on
/// an advisory lock, so each migration runs once; a database migrated by a newer program
/// (a version this one does not know) is refused rather than used half-understood.
enum PostgresSchema {
    static let migrations: [(name: String, sql: String)] = [
        ("v1: apps, users, devices, messages, queues, usage, nodes", """
            CREATE TABLE app_override(
                app_key TEXT PRIMARY KEY, blocked BOOLEAN, secret TEXT, secret_rotated_at BIGINT);
            CREATE TABLE change_counter(id INTEGER PRIMARY KEY CHECK (id = 1), value BIGINT NOT NULL);
            INSERT INTO change_counter VALUES (1, 0);
            CREATE TABLE user_state(
                app_key TEXT NOT NULL, user_id TEXT NOT NULL, blocked_until BIGINT,
                deactivated BOOLEAN NOT NULL DEFAULT false, tokens_invalid_before BIGINT,
                PRIMARY KEY (app_key, user_id));
            CREATE TABLE device(
                id BIGSERIAL PRIMARY KEY, app_key TEXT NOT NULL, user_id TEXT NOT NULL, device_id TEXT NOT NULL,
                platform TEXT NOT NULL, registered_at BIGINT NOT NULL, UNIQUE (app_key, user_id, device_id));
            CREATE TABLE message(
                id BIGSERIAL PRIMARY KEY, app_key TEXT NOT NULL, uid TEXT NOT NULL UNIQUE, sender TEXT NOT NULL,
                recipients TEXT NOT NULL, cid TEXT NOT NULL, text TEXT NOT NULL, sent_at BIGINT NOT NULL,
                UNIQUE (app_key, sender, cid));
            CREATE INDEX message_age ON message(app_key, sent_at);
            CREATE TABLE queue(device BIGINT NOT NULL, message BIGINT NOT NULL, PRIMARY KEY (device, message));
            CREATE INDEX queue_message ON queue(message);
            CREATE TABLE queued_usage(
                app_key TEXT NOT NULL, user_id TEXT NOT NULL, messages BIGINT NOT NULL, bytes BIGINT NOT NULL,
                PRIMARY KEY (app_key, user_id));
            CREATE TABLE node(name TEXT PRIMARY KEY, started_at BIGINT NOT NULL, seen_at BIGINT NOT NULL);
            CREATE TABLE presence(
                sequence BIGSERIAL PRIMARY KEY, node TEXT NOT NULL, connection BIGINT NOT NULL,
                app_key TEXT NOT NULL, user_id TEXT NOT NULL, device_id TEXT NOT NULL, platform TEXT NOT NULL,
                since BIGINT NOT NULL);
            CREATE INDEX presence_user ON presence(app_key, user_id);
            CREATE INDEX presence_node ON presence(node, connection);
            """),
        ("v2: api nonces", """
            CREATE TABLE api_nonce(
                app_key TEXT NOT NULL, nonce TEXT NOT NULL, expires_at BIGINT NOT NULL, PRIMARY KEY (app_key, nonce));
            CREATE INDEX api_nonce_expiry ON api_nonce(expires_at);
            """),
        ("v3: store messages in one round trip", PostgresStoreFunction.definition),
        ("v4: where clients reach each node (Server References)", """
            ALTER TABLE node ADD COLUMN address TEXT NOT NULL DEFAULT '';
            """),
        ("v5: when the call that set a user's block or deactivation was received", """
            ALTER TABLE user_state ADD COLUMN blocked_at BIGINT NOT NULL DEFAULT 0,
                ADD COLUMN deactivated_at BIGINT NOT NULL DEFAULT 0;
            """),
        ("v6: one presence row per connection (a login retried after a COMMIT lost wrote two)", """
            DELETE FROM presence a USING presence b
                WHERE a.node = b.node AND a.connection = b.connection AND a.sequence > b.sequence;
            DROP INDEX presence_node;
            CREATE UNIQUE INDEX presence_node ON presence(node, connection);
            """),
        ("v7: deliver notices carry the message and each device's chain", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
        ("v8: the quota checked and counted in one statement", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
        // Every message wrote an entry no query reads; the uids' 80 random bits keep them
        // unique, as in the SQLite store since its v4. Without it PostgreSQL's CPU a saturated
        // cross-node message fell from 184 to 162 us, the rate rose 11 % (medians of five, issue 42).
        ("v9: no index on message uids", """
            ALTER TABLE message DROP CONSTRAINT message_uid_key;
            """),
        ("v10: notices carry the messages of batches of up to eight", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
        ("v11: a sender's messages in a batch counted in one statement", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
        // A node older than this calls the function without p_notify, whose default keeps its
        // notices; the secret's 244 random bits come from PostgreSQL's strong random source.
        ("v12: links between nodes carry the deliver notices", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            ALTER TABLE node ADD COLUMN link TEXT NOT NULL DEFAULT '';
            CREATE TABLE link_secret(id INTEGER PRIMARY KEY CHECK (id = 1), secret TEXT NOT NULL);
            INSERT INTO link_secret VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
            """ + PostgresStoreFunction.definition),
        ("v13: a busy node's batch stored in one statement", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
        ("v14: the store and the acknowledgement of several entries planned without reading the whole queue", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition + ";\n" + PostgresAcknowledgeFunction.definition),
        ("v15: the store function's common path evaluates fewer expressions", """
            DROP FUNCTION \(PostgresStoreFunction.name);
            """ + PostgresStoreFunction.definition),
    ]

    /// The advisory lock key nodes take while migrating.
    static let migrationLock: Int64 = 0x696D_7363_6865

    /// Brings the database to the newest schema, in one transaction.
    static func migrate(_ connection: PostgresConnection) throws {
        try connection.transaction { connection in
            _ = try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(migrationLock)])
            _ = try connection.execute("""
                CREATE TABLE IF NOT EXISTS imserver_schema(
                    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """)
            let applied = try connection.execute("SELECT coalesce(max(version), 0) FROM imserver_schema").rows.first?[0].int64 ?? 0
            guard applied <= Int64(migrations.count) else {
                throw PostgresSchemaError.newer(version: applied, known: migrations.count)
            }
            for (index, migration) in migrations.enumerated() where Int64(index + 1) > applied {
                try connection.executeScript(migration.sql)
                _ = try connection.execute("INSERT INTO imserver_schema(version, name) VALUES ($1, $2)",
                                           [.integer(Int64(index + 1)), .text(migration.name)])
            }
        }
    }
}
