/// A busy node's batch in one statement (v13): see `PostgresStoreFunction`.
extension PostgresStoreFunction {
    /// Stores the messages of a batch larger than `inlineBatchLimit` whose senders' messages
    /// in the batch fit their quota (or there is none), as set-based statements in one: it
    /// counts each sender's usage in one upsert (the rows locked in the order `acknowledge`
    /// takes them), inserts the first message of each cid, queues them for the recipients'
    /// devices, and answers per message of the batch in `s_id` (its id; -1: a resend of a
    /// sender counted here; 0: left to the loop, as a sender over quota is), `s_users` and
    /// `s_devices` (its deliveries, as array literals) and `s_missing` (its recipients with no
    /// device, to queue for a placeholder). A batch with a sender whose messages alone exceed
    /// the quota counts nobody here: the loop then locks every usage row in the callers'
    /// order, as before, so that no two transactions take them in opposite orders.
    ///
    /// One statement's start costs about what one of the loop's costs, so the loop's three
    /// or four statements a message cost more than the plan of one statement for the whole
    /// batch takes to start: with `pgbench`, batches of 30 under the default quota took 5.1
    /// against 7.2 ms (issue 42, BENCHMARKS.md). A batch of a few messages keeps the loop,
    /// whose chain this statement leaves out.
    static let batchStatement = """
            IF NOT v_inline THEN
                WITH runs AS (
                    SELECT p_app[m] AS app, p_sender[m] AS sender, count(*) AS n, sum(octet_length(p_text[m])) AS bytes
                    FROM generate_subscripts(p_uid, 1) AS m GROUP BY 1, 2),
                counted AS (
                    INSERT INTO queued_usage AS u (app_key, user_id, messages, bytes)
                    SELECT app, sender, n, bytes FROM runs
                    WHERE p_quota_messages IS NULL
                       OR NOT EXISTS (SELECT 1 FROM runs r WHERE r.n > p_quota_messages OR r.bytes > p_quota_bytes)
                    ORDER BY app COLLATE "C", sender COLLATE "C"
                    ON CONFLICT (app_key, user_id) DO UPDATE SET messages = u.messages + excluded.messages, bytes = u.bytes + excluded.bytes
                    WHERE p_quota_messages IS NULL
                       OR (u.messages + excluded.messages <= p_quota_messages AND u.bytes + excluded.bytes <= p_quota_bytes)
                    RETURNING u.app_key, u.user_id),
                batch AS (
                    SELECT m, c.app_key IS NOT NULL AS counted
                    FROM generate_subscripts(p_uid, 1) AS m LEFT JOIN counted c ON c.app_key = p_app[m] AND c.user_id = p_sender[m]),
                firsts AS (
                    SELECT DISTINCT ON (p_app[m], p_sender[m], p_cid[m]) m FROM batch WHERE counted ORDER BY p_app[m], p_sender[m], p_cid[m], m),
                stored AS (
                    INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at)
                    SELECT p_app[m], p_uid[m], p_sender[m], p_recipients[m], p_cid[m], p_text[m], p_sent[m] FROM firsts ORDER BY m
                    ON CONFLICT (app_key, sender, cid) DO NOTHING RETURNING id, app_key, sender, cid, recipients),
                targets AS (
                    SELECT f.m, s.id, r.u, r.o, d.id AS device, d.device_id
                    FROM stored s JOIN firsts f ON p_app[f.m] = s.app_key AND p_sender[f.m] = s.sender AND p_cid[f.m] = s.cid
                    LEFT JOIN LATERAL unnest(string_to_array(s.recipients, ',')) WITH ORDINALITY AS r(u, o) ON true
                    LEFT JOIN device d ON d.app_key = s.app_key AND d.user_id = r.u),
                entries AS (INSERT INTO queue(device, message) SELECT device, id FROM targets WHERE device IS NOT NULL),
                outcome AS (
                    SELECT m, id, coalesce(array_agg(u ORDER BY o, device_id) FILTER (WHERE device_id <> ''), '{}') AS users,
                           coalesce(array_agg(device_id ORDER BY o, device_id) FILTER (WHERE device_id <> ''), '{}') AS devices,
                           coalesce(array_agg(u ORDER BY o) FILTER (WHERE device IS NULL AND u IS NOT NULL), '{}') AS missing
                    FROM targets GROUP BY m, id)
                SELECT array_agg(CASE WHEN o.id IS NOT NULL THEN o.id WHEN b.counted THEN -1 ELSE 0 END ORDER BY b.m),
                       array_agg(o.users::text ORDER BY b.m), array_agg(o.devices::text ORDER BY b.m), array_agg(o.missing::text ORDER BY b.m)
                INTO s_id, s_users, s_devices, s_missing
                FROM batch b LEFT JOIN outcome o ON o.m = b.m;
            END IF;
        """

    /// The loop's first step for a message `batchStatement` answered: the placeholders of
    /// recipients with no device, then its row; for a resend, the usage counted for it given
    /// back and the first copy's row. Nothing for a message it left (or when it did not run).
    static let batchOutcome = """
                -- Stored by the batch's statement above, or a resend of a sender it counted.
                IF s_id[i] > 0 THEN
                    FOREACH v_user IN ARRAY s_missing[i]::text[] LOOP
                        SELECT d.id INTO v_device FROM device d WHERE d.app_key = p_app[i] AND d.user_id = v_user AND d.device_id = '';
                        IF NOT FOUND THEN
                            INSERT INTO device(app_key, user_id, device_id, platform, registered_at)
                            VALUES (p_app[i], v_user, '', '', 0) RETURNING id INTO v_device;
                        END IF;
                        INSERT INTO queue(device, message) VALUES (v_device, s_id[i]);
                    END LOOP;
                    delivered_users := s_users[i]::text[];
                    delivered_devices := s_devices[i]::text[];
                    delivered_previous := array_fill(9223372036854775807::bigint, ARRAY[cardinality(delivered_users)]);
                    IF p_notify THEN
                        n_app := n_app || array_fill(p_app[i], ARRAY[cardinality(delivered_users)]);
                        n_user := n_user || delivered_users; n_device := n_device || delivered_devices;
                    END IF;
                    message_id := s_id[i]; message_uid := p_uid[i]; sent := p_sent[i]; duplicate := false;
                    over_messages := NULL; over_bytes := NULL;
                    RETURN NEXT;
                    CONTINUE;
                ELSIF s_id[i] = -1 THEN
                    UPDATE queued_usage u SET messages = u.messages - 1, bytes = u.bytes - octet_length(p_text[i])
                    WHERE u.app_key = p_app[i] AND u.user_id = p_sender[i];
                    SELECT m.id, m.uid, m.sent_at INTO message_id, message_uid, sent FROM message m
                    WHERE m.app_key = p_app[i] AND m.sender = p_sender[i] AND m.cid = p_cid[i];
                    delivered_users := '{}'; delivered_devices := '{}'; delivered_previous := '{}';
                    over_messages := NULL; over_bytes := NULL; duplicate := true;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
        """
}
