/// The function that stores a batch of messages in one round trip to PostgreSQL.
///
/// Storing a message takes several statements that depend on each other (its id, then the
/// queue entries of the recipients' devices, then the sender's usage); sent one by one they
/// cost a round trip each, and the round trips, not PostgreSQL's work, bounded the message
/// rate (and every node waits on the write lock while they go back and forth). The same steps
/// as `MessageWriter`'s, in PL/pgSQL (built into PostgreSQL): the recipients' locks, for each message
/// the quota check, the insert or the first copy of a resend, a queue entry per device (a
/// placeholder's for a user with none) and the usage; and for each message queued for real
/// devices, one `deliver` notice per 40 of them carrying the message itself when it fits
/// (`ClusterNotice`), sent when the statement's transaction commits.
///
/// Each device's `last_queued` chains its queue: the notice gives, per device, the message
/// queued before this one, so a node whose connection handed over exactly that one sends this
/// one without reading the queue (`Delivery.previous`). The chain holds because a user's
/// messages are queued under the user's lock and committed before it is released: for one
/// device, ids rise in commit order, and NOTIFY delivers in commit order.
///
/// Migrations create the function afresh whenever it changes (v3, then v7), so every
/// database ends with this definition whichever version it started from.
enum PostgresStoreFunction {
    static let name = "imserver_store_messages"

    /// The call: arrays of app keys, uids, senders, comma-joined recipients, cids, texts and
    /// times; the quota's messages and bytes (null: none); the node's name.
    static let call = """
        SELECT message_id, message_uid, sent, duplicate, over_messages, over_bytes, delivered_users, delivered_devices,
               delivered_previous
        FROM \(name)($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8, $9, $10)
        """

    static let definition = """
        CREATE FUNCTION \(name)(
            p_app text[], p_uid text[], p_sender text[], p_recipients text[], p_cid text[], p_text text[], p_sent bigint[],
            p_quota_messages bigint, p_quota_bytes bigint, p_node text)
        RETURNS TABLE(message_id bigint, message_uid text, sent bigint, duplicate boolean, over_messages bigint,
                      over_bytes bigint, delivered_users text[], delivered_devices text[], delivered_previous bigint[])
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
            v_notice jsonb;
            v_devices jsonb;
            v_previous jsonb;
            v_payload text;
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
                delivered_previous := '{}';
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
                    FOR v_row IN SELECT d.id, d.device_id, d.last_queued FROM device d
                                 WHERE d.app_key = p_app[i] AND d.user_id = v_user LOOP
                        v_found := true;
                        INSERT INTO queue(device, message) VALUES (v_row.id, v_id);
                        UPDATE device SET last_queued = v_id WHERE id = v_row.id;
                        IF v_row.device_id <> '' THEN
                            delivered_users := delivered_users || v_user;
                            delivered_devices := delivered_devices || v_row.device_id;
                            delivered_previous := delivered_previous || v_row.last_queued;
                        END IF;
                    END LOOP;
                    IF NOT v_found THEN
                        INSERT INTO device(app_key, user_id, device_id, platform, registered_at, last_queued)
                        VALUES (p_app[i], v_user, '', '', 0, v_id) RETURNING id INTO v_device;
                        INSERT INTO queue(device, message) VALUES (v_device, v_id);
                    END IF;
                END LOOP;
                INSERT INTO queued_usage(app_key, user_id, messages, bytes) VALUES (p_app[i], p_sender[i], 1, v_size)
                ON CONFLICT (app_key, user_id) DO UPDATE
                SET messages = queued_usage.messages + 1, bytes = queued_usage.bytes + excluded.bytes;
                message_id := v_id; message_uid := p_uid[i]; sent := p_sent[i]; duplicate := false;
                -- The notices: the devices 40 at a time (under the 8,000-byte payload limit),
                -- with the message when it fits; one too long goes as a wake-up to read it.
                FOR k IN 0 .. ceil(coalesce(array_length(delivered_users, 1), 0) / 40.0)::int - 1 LOOP
                    SELECT jsonb_agg(jsonb_build_array(u, d) ORDER BY o), jsonb_agg(prev ORDER BY o)
                    INTO v_devices, v_previous FROM unnest(
                        delivered_users[k * 40 + 1 : k * 40 + 40], delivered_devices[k * 40 + 1 : k * 40 + 40],
                        delivered_previous[k * 40 + 1 : k * 40 + 40]) WITH ORDINALITY AS s(u, d, prev, o);
                    v_notice := jsonb_build_object('node', p_node, 'event', 'deliver', 'app', p_app[i], 'devices', v_devices,
                        'previous', v_previous, 'at', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint);
                    v_payload := (v_notice || jsonb_build_object('message', jsonb_build_object(
                        'id', v_id, 'uid', p_uid[i], 'from', p_sender[i], 'to', to_jsonb(string_to_array(p_recipients[i], ',')),
                        'text', p_text[i], 'cid', p_cid[i], 'sent', p_sent[i])))::text;
                    IF octet_length(v_payload) >= 8000 THEN
                        v_payload := v_notice::text;
                    END IF;
                    PERFORM pg_notify('imserver', v_payload);
                END LOOP;
                RETURN NEXT;
            END LOOP;
        END
        $body$
        """
}
