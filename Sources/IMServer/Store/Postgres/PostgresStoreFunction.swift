/// The function that stores a batch of messages in one round trip to PostgreSQL.
///
/// Storing a message takes several statements that depend on each other (its id, then the
/// queue entries of the recipients' devices, then the sender's usage); sent one by one they
/// cost a round trip each, and the round trips, not PostgreSQL's work, bounded the message
/// rate (and every node waits on the write lock while they go back and forth). The same steps
/// as `MessageWriter`'s, in PL/pgSQL (built into PostgreSQL): the recipients' locks, for each message
/// the quota check, the insert or the first copy of a resend, a queue entry per device (a
/// placeholder's for a user with none) and the usage; then one `deliver` notice per app and
/// 50 devices (`ClusterNotice`), sent when the statement's transaction commits.
enum PostgresStoreFunction {
    static let name = "imserver_store_messages"

    /// The call: arrays of app keys, uids, senders, comma-joined recipients, cids, texts and
    /// times; the quota's messages and bytes (null: none); the node's name.
    static let call = """
        SELECT message_id, message_uid, sent, duplicate, over_messages, over_bytes, delivered_users, delivered_devices
        FROM \(name)($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8, $9, $10)
        """

    static let definition = """
        CREATE FUNCTION \(name)(
            p_app text[], p_uid text[], p_sender text[], p_recipients text[], p_cid text[], p_text text[], p_sent bigint[],
            p_quota_messages bigint, p_quota_bytes bigint, p_node text)
        RETURNS TABLE(message_id bigint, message_uid text, sent bigint, duplicate boolean, over_messages bigint,
                      over_bytes bigint, delivered_users text[], delivered_devices text[])
        LANGUAGE plpgsql AS $body$
        DECLARE
            i int;
            v_id bigint;
            v_device bigint;
            v_size bigint;
            v_used_messages bigint;
            v_used_bytes bigint;
            v_user text;
            v_row record;
            v_found boolean;
            n_app text[] := '{}';
            n_user text[] := '{}';
            n_device text[] := '{}';
            v_app text;
            v_users text[];
            v_devices text[];
            k int;
            v_key bigint;
        BEGIN
            -- The recipients' locks, in one order everywhere (no deadlock): see PostgresServerStore.
            FOR v_key IN
                SELECT DISTINCT hashtextextended(p_app[m] || chr(1) || r, 0)
                FROM generate_subscripts(p_uid, 1) AS m, unnest(string_to_array(p_recipients[m], ',')) AS r ORDER BY 1
            LOOP
                PERFORM pg_advisory_xact_lock(v_key);
            END LOOP;
            FOR i IN 1 .. coalesce(array_length(p_uid, 1), 0) LOOP
                v_size := octet_length(p_text[i]);
                delivered_users := '{}';
                delivered_devices := '{}';
                over_messages := NULL;
                over_bytes := NULL;
                IF p_quota_messages IS NOT NULL THEN
                    SELECT u.messages, u.bytes INTO v_used_messages, v_used_bytes FROM queued_usage u
                    WHERE u.app_key = p_app[i] AND u.user_id = p_sender[i];
                    v_used_messages := coalesce(v_used_messages, 0);
                    v_used_bytes := coalesce(v_used_bytes, 0);
                    IF v_used_messages + 1 > p_quota_messages OR v_used_bytes + v_size > p_quota_bytes THEN
                        SELECT m.id, m.uid, m.sent_at INTO message_id, message_uid, sent FROM message m
                        WHERE m.app_key = p_app[i] AND m.sender = p_sender[i] AND m.cid = p_cid[i];
                        IF FOUND THEN
                            duplicate := true;
                        ELSE
                            message_id := 0; message_uid := ''; sent := p_sent[i]; duplicate := false;
                            over_messages := v_used_messages; over_bytes := v_used_bytes;
                        END IF;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                END IF;
                v_id := NULL;
                INSERT INTO message(app_key, uid, sender, recipients, cid, text, sent_at)
                VALUES (p_app[i], p_uid[i], p_sender[i], p_recipients[i], p_cid[i], p_text[i], p_sent[i])
                ON CONFLICT (app_key, sender, cid) DO NOTHING RETURNING id INTO v_id;
                IF v_id IS NULL THEN
                    SELECT m.id, m.uid, m.sent_at INTO message_id, message_uid, sent FROM message m
                    WHERE m.app_key = p_app[i] AND m.sender = p_sender[i] AND m.cid = p_cid[i];
                    duplicate := true;
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                FOREACH v_user IN ARRAY string_to_array(p_recipients[i], ',') LOOP
                    v_found := false;
                    FOR v_row IN SELECT d.id, d.device_id FROM device d WHERE d.app_key = p_app[i] AND d.user_id = v_user LOOP
                        v_found := true;
                        INSERT INTO queue(device, message) VALUES (v_row.id, v_id);
                        IF v_row.device_id <> '' THEN
                            delivered_users := delivered_users || v_user;
                            delivered_devices := delivered_devices || v_row.device_id;
                        END IF;
                    END LOOP;
                    IF NOT v_found THEN
                        INSERT INTO device(app_key, user_id, device_id, platform, registered_at)
                        VALUES (p_app[i], v_user, '', '', 0) RETURNING id INTO v_device;
                        INSERT INTO queue(device, message) VALUES (v_device, v_id);
                    END IF;
                END LOOP;
                INSERT INTO queued_usage(app_key, user_id, messages, bytes) VALUES (p_app[i], p_sender[i], 1, v_size)
                ON CONFLICT (app_key, user_id) DO UPDATE
                SET messages = queued_usage.messages + 1, bytes = queued_usage.bytes + excluded.bytes;
                message_id := v_id; message_uid := p_uid[i]; sent := p_sent[i]; duplicate := false;
                FOR k IN 1 .. coalesce(array_length(delivered_users, 1), 0) LOOP
                    n_app := n_app || p_app[i];
                    n_user := n_user || delivered_users[k];
                    n_device := n_device || delivered_devices[k];
                END LOOP;
                RETURN NEXT;
            END LOOP;
            FOR v_app IN SELECT DISTINCT a FROM unnest(n_app) AS a LOOP
                SELECT array_agg(u ORDER BY o), array_agg(d ORDER BY o) INTO v_users, v_devices
                FROM unnest(n_app, n_user, n_device) WITH ORDINALITY AS t(a, u, d, o) WHERE a = v_app;
                FOR k IN 0 .. (array_length(v_users, 1) - 1) / 50 LOOP
                    PERFORM pg_notify('imserver', json_build_object(
                        'node', p_node, 'event', 'deliver', 'app', v_app,
                        'devices', (SELECT json_agg(json_build_array(u, d)) FROM unnest(
                            v_users[k * 50 + 1 : k * 50 + 50], v_devices[k * 50 + 1 : k * 50 + 50]) AS s(u, d)))::text);
                END LOOP;
            END LOOP;
        END
        $body$
        """
}
