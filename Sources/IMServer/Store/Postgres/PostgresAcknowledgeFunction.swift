/// The acknowledgement of several queue entries (`PostgresServerStore.acknowledge`) as a
/// function planned with sequential scans off (v14).
///
/// Why: every delivered message is queued and its entry deleted, so between vacuums the queue
/// and its indexes hold pages for far more entries than are live. PostgreSQL costs an index
/// probe by the index's pages per live entry, and on such statistics (976 index pages, 11
/// live entries) one read of the whole table looked cheaper than ten probes. The nodes' generic
/// plan kept that read: after saturated runs an acknowledgement took 6-9 ms (11 ms the slow
/// ones), and since the message lane runs one job at a time, the stores behind it waited: a
/// p99 of 26-27 ms at 1,000 messages/s against 13-15 with this function (issue 42,
/// BENCHMARKS.md). The store function reads the queue too, and is planned the
/// same way (`PostgresStoreFunction`). A function's `SET` holds for every plan made inside
/// it, a re-plan after autoanalyze too; nodes' sessions as a whole keep sequential scans,
/// which the heartbeat's statements on small tables need (with them off, those took 0.5 s
/// each). `PostgresQueuePlanTests` checks the queue's statements on such statistics.
enum PostgresAcknowledgeFunction {
    static let name = "imserver_acknowledge"

    /// The call: arrays of the entries' app keys, users, devices, message ids and list
    /// numbers (1-based); rows of a list number and the entries removed from it.
    static let call = "SELECT list, removed FROM \(name)($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])"

    /// The senders' usage drops by the messages that left their last queue. Every part of the
    /// statement sees the rows as they were before it, so a message left its last queue when
    /// it had as many entries as this statement removes. The usage rows are locked in the
    /// order of their (app, user) bytes, as the store function takes them, so the two never
    /// wait for each other in a cycle: all of them (the count reads the whole list) before the
    /// update runs, which finds each row by its key. Joined with that list, the update compared
    /// every sender's row with every other's: 4 of the 5 ms an acknowledgement of 80 took.
    /// Each device is looked up by its key, not joined: the generic plan of a join read the
    /// whole device table for every statement.
    static let definition = """
        CREATE FUNCTION \(name)(p_app text[], p_user text[], p_device text[], p_message bigint[], p_list bigint[])
        RETURNS TABLE(list bigint, removed bigint)
        LANGUAGE plpgsql SET enable_seqscan = off AS $body$
        #variable_conflict use_column
        BEGIN
            RETURN QUERY
            WITH acked AS (
                SELECT (SELECT d.id FROM device d WHERE d.app_key = a.app AND d.user_id = a.usr AND d.device_id = a.dev) AS device,
                       a.message, a.k
                FROM unnest(p_app, p_user, p_device, p_message, p_list) AS a(app, usr, dev, message, k)),
            gone AS (DELETE FROM queue q USING acked a WHERE q.device = a.device AND q.message = a.message
                     RETURNING q.device, q.message),
            freed AS (SELECT m.app_key, m.sender, count(*) AS count, sum(octet_length(m.text)) AS size
                      FROM (SELECT g.message, count(*) AS entries FROM gone g GROUP BY g.message) g JOIN message m ON m.id = g.message
                      WHERE (SELECT count(*) FROM queue q WHERE q.message = g.message) = g.entries
                      GROUP BY m.app_key, m.sender),
            locked AS (SELECT u.app_key, u.user_id FROM queued_usage u JOIN freed f ON u.app_key = f.app_key AND u.user_id = f.sender
                       ORDER BY u.app_key COLLATE "C", u.user_id COLLATE "C" FOR UPDATE OF u),
            released AS (UPDATE queued_usage u SET messages = u.messages - f.count, bytes = u.bytes - f.size
                         FROM freed f WHERE u.app_key = f.app_key AND u.user_id = f.sender
                           AND (SELECT count(*) FROM locked) >= 0 RETURNING 1)
            SELECT a.k, count(*) FROM gone g JOIN acked a ON a.device = g.device AND a.message = g.message GROUP BY a.k;
        END
        $body$
        """
}
