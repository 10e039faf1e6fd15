/// The function that stores a batch of messages in one round trip to PostgreSQL.
///
/// Storing a message takes several statements that depend on each other (its id, then the
/// queue entries of the recipients' devices, then the sender's usage); sent one by one they
/// cost a round trip each, and the round trips, not PostgreSQL's work, bounded the message
/// rate (and every node waits on the write lock while they go back and forth). The same steps
/// as `MessageWriter`'s, in PL/pgSQL (built into PostgreSQL): the recipients' locks, for each
/// message the quota check, the insert or the first copy of a resend, a queue entry per device
/// (a placeholder's for a user with none) and the usage; then the `deliver` notices
/// (`ClusterNotice`), sent when the statement's transaction commits. Under a quota the check
/// and the usage are one conditional upsert, taken back for a resend (rare), and a lone
/// recipient's lock is an expression: two statements fewer a message at light load (v8).
/// A sender's messages in a batch are counted in one upsert when they fit the quota together
/// (else one by one, as before), and without a quota once after they are stored (v11): a
/// saturated node's batch holds two or three of each sender's, each a new version of the
/// sender's usage row.
///
/// Each statement run from PL/pgSQL costs PostgreSQL 20-50 µs to start, whatever it does, so
/// the notices are built from plain expressions, which cost next to nothing. For one message
/// the same steps as set-based statements cost more: 811 against 323 µs (their plans take
/// longer to start than the loop's statements take to run). A larger batch (a busy node)
/// stores the messages of senders within their quota in one such statement, which the loop
/// then answers for (`batchStatement`, v13), and the loop takes the rest one by one.
///
/// A batch of a few messages (a node at light load) sends one notice per message and 40
/// devices, carrying the message when the payload has room and, per device, the newest message
/// still queued for it before this one (`Delivery.previous`): a node whose connection handed
/// that one over sends the message without reading the queue. That holds because a user's
/// messages are queued under the user's lock and committed before it is released (for one
/// device, ids rise in commit order, and NOTIFY delivers in commit order). A larger batch (a
/// busy node) sends one notice per app and 40 devices, naming them only: the nodes then read
/// those queues in a few statements, where a notice per message cost more CPU at saturation
/// than the reads it saved (BENCHMARKS.md).
///
/// Its plans are made with sequential scans off (v14), as `PostgresAcknowledgeFunction` says
/// why: on statistics that counted three live queue entries, each lone message's chain read
/// the whole queue once a device (`PostgresQueuePlanTests`, issue 42). With `pgbench`, a
/// call costs the same with the setting as without.
///
/// Migrations create the function afresh whenever it changes (v3, v7, v8, v10, v11, v12, v13,
/// v14, v15), so every database ends with this definition whichever version it started from.
enum PostgresStoreFunction {
    static let name = "imserver_store_messages"
    /// The most messages a batch may hold for its notices to carry them. At 1,000 messages/s
    /// over three nodes a batch holds one or two, and more when the two cores are busy for a
    /// moment: with two, those moments turned every delivery into a read of the queue, which
    /// made them last longer. With eight, such a run's reads fell from 230-320 to 40-100 a
    /// node and PostgreSQL's CPU by 3-6 %; saturated batches hold dozens and still name the
    /// devices only (issue 42, BENCHMARKS.md).
    static let inlineBatchLimit = 8

    /// The call: arrays of app keys, uids, senders, comma-joined recipients, cids, texts and
    /// times; the quota's messages and bytes (null: none); the node's name; whether to send
    /// the notices (false: the node sends them over its links, `NodeLinks`). A node older than
    /// the flag calls the function without it and notifies.
    static let call = """
        SELECT message_id, message_uid, sent, duplicate, over_messages, over_bytes, delivered_users, delivered_devices,
               delivered_previous
        FROM \(name)($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8, $9, $10, $11)
        """

    static let definition = """
        CREATE FUNCTION \(name)(
            p_app text[], p_uid text[], p_sender text[], p_recipients text[], p_cid text[], p_text text[], p_sent bigint[],
            p_quota_messages bigint, p_quota_bytes bigint, p_node text, p_notify boolean DEFAULT true)
        RETURNS TABLE(message_id bigint, message_uid text, sent bigint, duplicate boolean, over_messages bigint,
                      over_bytes bigint, delivered_users text[], delivered_devices text[], delivered_previous bigint[])
        LANGUAGE plpgsql SET enable_seqscan = off AS $body$
        DECLARE
            -- Whether this batch's notices carry the messages (see above).
            v_inline boolean := coalesce(array_length(p_uid, 1), 0) <= \(inlineBatchLimit);
            i int;
            v_id bigint;
            v_device bigint;
            v_used_messages bigint;
            v_used_bytes bigint;
            v_user text;
            v_row record;
            -- The notice being filled: its devices and their chain as JSON lists, and how many.
            v_devices text;
            v_previous text;
            v_count int;
            v_message text;
            n_app text[];
            n_user text[];
            n_device text[];
            v_app text;
            k int;
            -- The run of messages of one sender (the caller sorts them by app and sender) that
            -- message i belongs to: where it ends, its bytes, whether its usage is counted, and
            -- (without a quota) what it stored, counted when the next run begins. A lone
            -- message is its own run.
            v_run_end int := CASE WHEN array_length(p_uid, 1) = 1 THEN 1 ELSE 0 END;
            v_run_bytes bigint;
            v_counted boolean;
            v_new_messages bigint;
            v_new_bytes bigint;
            -- What `batchStatement` answered, per message (see there).
            s_id bigint[];
            s_users text[];
            s_devices text[];
            s_missing text[];
        BEGIN
            -- The recipients' locks, in one order everywhere (no deadlock): see PostgresServerStore.
            -- A lone recipient's is an expression, not a statement; else one statement, not one a
            -- lock, its rows in the subquery's order (a key twice is harmless: the lock counts).
            IF coalesce(array_length(p_uid, 1), 0) = 1 AND strpos(p_recipients[1], ',') = 0 THEN
                PERFORM pg_advisory_xact_lock(hashtextextended(p_app[1] || chr(1) || p_recipients[1], 0));
            ELSE
                PERFORM pg_advisory_xact_lock(lock_key) FROM (
                    SELECT hashtextextended(p_app[m] || chr(1) || r, 0) AS lock_key
                    FROM generate_subscripts(p_uid, 1) AS m, unnest(string_to_array(p_recipients[m], ',')) AS r ORDER BY 1) AS s;
            END IF;
        \(batchStatement)
            FOR i IN 1 .. coalesce(array_length(p_uid, 1), 0) LOOP
                -- What follows runs once a message at light load, where PostgreSQL's CPU a
                -- message decides the tail: each expression PL/pgSQL evaluates is set up again
                -- in every transaction (a few µs each), so the common path evaluates few, and
                -- the answers' fields set only on rare paths are put back after them.
                IF NOT v_inline THEN
        \(batchOutcome)
                END IF;
                IF i > v_run_end THEN
                    IF v_new_messages > 0 THEN
                        INSERT INTO queued_usage AS u (app_key, user_id, messages, bytes)
                        VALUES (p_app[i - 1], p_sender[i - 1], v_new_messages, v_new_bytes)
                        ON CONFLICT (app_key, user_id) DO UPDATE SET messages = u.messages + excluded.messages, bytes = u.bytes + excluded.bytes;
                        v_new_messages := 0; v_new_bytes := 0;
                    END IF;
                    v_run_end := i; v_counted := false;
                    IF i < array_length(p_uid, 1) AND p_sender[i + 1] = p_sender[i] AND p_app[i + 1] = p_app[i] THEN
                        v_run_bytes := octet_length(p_text[i]);
                        WHILE v_run_end < array_length(p_uid, 1) AND p_sender[v_run_end + 1] = p_sender[i] AND p_app[v_run_end + 1] = p_app[i] LOOP
                            v_run_end := v_run_end + 1;
                            v_run_bytes := v_run_bytes + octet_length(p_text[v_run_end]);
                        END LOOP;
                        -- Under a quota a run that fits whole is counted in one statement, as the
                        -- messages one by one would be (each one's count is within the whole's).
                        IF p_quota_messages IS NOT NULL AND v_run_end - i + 1 <= p_quota_messages AND v_run_bytes <= p_quota_bytes THEN
                            INSERT INTO queued_usage AS u (app_key, user_id, messages, bytes) VALUES (p_app[i], p_sender[i], v_run_end - i + 1, v_run_bytes)
                            ON CONFLICT (app_key, user_id) DO UPDATE SET messages = u.messages + excluded.messages, bytes = u.bytes + excluded.bytes
                            WHERE u.messages + excluded.messages <= p_quota_messages AND u.bytes + excluded.bytes <= p_quota_bytes;
                            v_counted := FOUND;
                        END IF;
                    END IF;
                END IF;
                delivered_users := '{}';
                delivered_devices := '{}';
                delivered_previous := '{}';
                -- Under a quota the usage is counted first, only where it stays within (one
                -- statement for the check and the count, none of it for a message over the
                -- quota alone); a resend found next gives it back.
                IF p_quota_messages IS NOT NULL AND v_counted IS NOT TRUE THEN
                    INSERT INTO queued_usage AS u (app_key, user_id, messages, bytes)
                    SELECT p_app[i], p_sender[i], 1, octet_length(p_text[i])
                    WHERE 1 <= p_quota_messages AND octet_length(p_text[i]) <= p_quota_bytes
                    ON CONFLICT (app_key, user_id) DO UPDATE SET messages = u.messages + 1, bytes = u.bytes + excluded.bytes
                    WHERE u.messages + 1 <= p_quota_messages AND u.bytes + excluded.bytes <= p_quota_bytes;
                    IF NOT FOUND THEN
                        SELECT m.id, m.uid, m.sent_at INTO message_id, message_uid, sent FROM message m
                        WHERE m.app_key = p_app[i] AND m.sender = p_sender[i] AND m.cid = p_cid[i];
                        IF FOUND THEN
                            duplicate := true;
                        ELSE
                            SELECT u.messages, u.bytes INTO v_used_messages, v_used_bytes FROM queued_usage u
                            WHERE u.app_key = p_app[i] AND u.user_id = p_sender[i];
                            message_id := 0; message_uid := ''; sent := p_sent[i]; duplicate := false;
                            over_messages := coalesce(v_used_messages, 0); over_bytes := coalesce(v_used_bytes, 0);
                        END IF;
                        RETURN NEXT;
                        over_messages := NULL; over_bytes := NULL;
                        CONTINUE;
                    END IF;
                END IF;
                INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at)
                VALUES (p_app[i], p_uid[i], p_sender[i], p_recipients[i], p_cid[i], p_text[i], p_sent[i])
                ON CONFLICT (app_key, sender, cid) DO NOTHING RETURNING id INTO v_id;
                IF NOT FOUND THEN
                    IF p_quota_messages IS NOT NULL THEN
                        UPDATE queued_usage u SET messages = u.messages - 1, bytes = u.bytes - octet_length(p_text[i])
                        WHERE u.app_key = p_app[i] AND u.user_id = p_sender[i];
                    END IF;
                    SELECT m.id, m.uid, m.sent_at INTO message_id, message_uid, sent FROM message m
                    WHERE m.app_key = p_app[i] AND m.sender = p_sender[i] AND m.cid = p_cid[i];
                    duplicate := true;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                IF v_inline AND p_notify THEN
                    v_count := 0;
                    v_message := json_build_object('id', v_id, 'uid', p_uid[i], 'from', p_sender[i],
                        'to', to_json(string_to_array(p_recipients[i], ',')), 'text', p_text[i], 'cid', p_cid[i], 'sent', p_sent[i]);
                END IF;
                FOREACH v_user IN ARRAY string_to_array(p_recipients[i], ',') LOOP
                    -- The chain costs a look-up a device (30 µs a message in batches of 30), so
                    -- a larger batch leaves it out (the largest bigint): its devices' connections read.
                    FOR v_row IN SELECT d.id, d.device_id,
                                        CASE WHEN v_inline THEN (SELECT coalesce(max(q.message), 0) FROM queue q WHERE q.device = d.id)
                                             ELSE 9223372036854775807 END AS previous
                                 FROM device d WHERE d.app_key = p_app[i] AND d.user_id = v_user ORDER BY d.device_id LOOP
                        INSERT INTO queue(device, message) VALUES (v_row.id, v_id);
                        CONTINUE WHEN v_row.device_id = '';
                        delivered_users := delivered_users || v_user;
                        delivered_devices := delivered_devices || v_row.device_id;
                        delivered_previous := delivered_previous || v_row.previous;
                        -- The node sends the notices itself, from what the function answers.
                        CONTINUE WHEN NOT p_notify;
                        IF NOT v_inline THEN
                            n_app := n_app || p_app[i]; n_user := n_user || v_user; n_device := n_device || v_row.device_id;
                            CONTINUE;
                        END IF;
                        -- A notice per message and 40 devices (under the 8,000-byte payload
                        -- limit), with the message when it fits (a wake-up to read it otherwise).
                        v_devices := CASE WHEN v_count = 0 THEN '' ELSE v_devices || ',' END
                                     || json_build_array(v_user, v_row.device_id)::text;
                        v_previous := CASE WHEN v_count = 0 THEN '' ELSE v_previous || ',' END || v_row.previous;
                        v_count := v_count + 1;
                        IF v_count = 40 THEN
                            PERFORM pg_notify('imserver', \(noticeExpression));
                            v_count := 0;
                        END IF;
                    END LOOP;
                    -- FOUND: whether the loop above found a device.
                    IF NOT FOUND THEN
                        INSERT INTO device(app_key, user_id, device_id, platform, registered_at)
                        VALUES (p_app[i], v_user, '', '', 0) RETURNING id INTO v_device;
                        INSERT INTO queue(device, message) VALUES (v_device, v_id);
                    END IF;
                END LOOP;
                -- Set only when this batch's notices carry the messages.
                IF v_count > 0 THEN
                    PERFORM pg_notify('imserver', \(noticeExpression));
                END IF;
                IF p_quota_messages IS NULL THEN
                    v_new_messages := coalesce(v_new_messages, 0) + 1; v_new_bytes := coalesce(v_new_bytes, 0) + octet_length(p_text[i]);
                END IF;
                message_id := v_id; message_uid := p_uid[i]; sent := p_sent[i]; duplicate := false;
                RETURN NEXT;
            END LOOP;
            IF v_new_messages > 0 THEN
                INSERT INTO queued_usage AS u (app_key, user_id, messages, bytes)
                VALUES (p_app[v_run_end], p_sender[v_run_end], v_new_messages, v_new_bytes)
                ON CONFLICT (app_key, user_id) DO UPDATE SET messages = u.messages + excluded.messages, bytes = u.bytes + excluded.bytes;
            END IF;
            -- A larger batch: a notice per app and 40 devices, naming them only.
            IF v_inline OR NOT p_notify THEN RETURN; END IF;
            FOR v_app IN SELECT DISTINCT a FROM unnest(n_app) AS a LOOP
                SELECT array_agg(u ORDER BY o), array_agg(d ORDER BY o) INTO delivered_users, delivered_devices
                FROM unnest(n_app, n_user, n_device) WITH ORDINALITY AS t(a, u, d, o) WHERE a = v_app;
                FOR k IN 0 .. (array_length(delivered_users, 1) - 1) / 40 LOOP
                    PERFORM pg_notify('imserver', json_build_object(
                        'node', p_node, 'event', 'deliver', 'app', v_app,
                        'at', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,
                        'devices', (SELECT json_agg(json_build_array(u, d)) FROM unnest(
                            delivered_users[k * 40 + 1 : k * 40 + 40], delivered_devices[k * 40 + 1 : k * 40 + 40]) AS s(u, d)))::text);
                END LOOP;
            END LOOP;
        END
        $body$
        """

    /// The notice of message `i` to the devices gathered in `v_devices` and `v_previous`,
    /// with the message (`v_message`) when the payload stays under 8,000 bytes.
    private static let noticeExpression = """
        format('{"node":%s,"event":"deliver","app":%s,"devices":[%s],"previous":[%s],"at":%s%s}',
               to_json(p_node), to_json(p_app[i]), v_devices, v_previous,
               (extract(epoch FROM clock_timestamp()) * 1000000)::bigint,
               CASE WHEN octet_length(v_message) + octet_length(v_devices) + octet_length(v_previous) < 7600
                    THEN ',"message":' || v_message ELSE '' END)
        """
}
