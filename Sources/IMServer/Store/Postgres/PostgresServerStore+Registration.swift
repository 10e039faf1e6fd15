import IMPostgres

extension PostgresServerStore {
    /// A user's `device` rows as a registration batch sees them: real devices, or only the
    /// placeholder, or none; a row the batch inserts has no id yet (0).
    private typealias DeviceRow = (id: Int64, deviceID: String, platform: String)

    /// Registers a batch of logins' devices in the caller's transaction, with the users' locks
    /// held: one read of every user's rows, then one statement for each kind of write the batch
    /// needs (platform changes, new devices), the placeholders taken one by one (a user's first
    /// device only). Each login is decided as if the ones before it were written already, as
    /// one at a time would (two round trips a login made logins the slowest step of a cluster).
    /// True for a device new to its user.
    static func register(_ items: [DeviceRegistration], now: Int64, on connection: PostgresConnection) throws -> [Bool] {
        func key(_ appKey: String, _ userID: String) -> String { appKey + "\u{1}" + userID }
        var rows: [String: [DeviceRow]] = [:]
        // Planned at each call, not prepared: a generic plan assumes 100 users and joins them
        // to the whole table by a scan (4.5 ms a batch of ten logins on 10,000 devices), where
        // a plan for the batch at hand probes the index (issue 42).
        for row in try connection.execute("""
            SELECT d.app_key || chr(1) || d.user_id, d.id, d.device_id, d.platform
            FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::text[]) AS k(app_key, user_id)) AS k
            JOIN device d ON d.app_key = k.app_key AND d.user_id = k.user_id
            """, [texts(items.map(\.appKey)), texts(items.map(\.userID))]).rows {
            rows[row[0].string ?? "", default: []].append((row[1].int64 ?? 0, row[2].string ?? "", row[3].string ?? ""))
        }
        var platforms: [Int64: String] = [:]
        var inserts: [DeviceRegistration] = []
        var placeholders: [(id: Int64, DeviceRegistration)] = []
        let results = items.map { item -> Bool in
            let user = key(item.appKey, item.userID), platform = item.platform.rawValue
            let known = rows[user] ?? []
            if let index = known.firstIndex(where: { $0.deviceID == item.deviceID }) {
                guard known[index].platform != platform else { return false }
                rows[user]?[index].platform = platform
                if known[index].id != 0 {
                    platforms[known[index].id] = platform
                } else if let inserted = inserts.firstIndex(where: { key($0.appKey, $0.userID) == user && $0.deviceID == item.deviceID }) {
                    inserts[inserted] = item
                }
                return false
            }
            if known.count == 1, known[0].deviceID == placeholderDeviceID, known[0].id != 0 {
                placeholders.append((known[0].id, item))
                rows[user] = [(known[0].id, item.deviceID, platform)]
            } else {
                inserts.append(item)
                rows[user, default: []].append((0, item.deviceID, platform))
            }
            return true
        }
        // After the placeholders: a device that took one may change its platform later in the batch.
        for (id, item) in placeholders {
            _ = try connection.execute("UPDATE device SET device_id = $1, platform = $2, registered_at = $3 WHERE id = $4",
                                       [.text(item.deviceID), .text(item.platform.rawValue), .integer(now), .integer(id)])
        }
        if !platforms.isEmpty {
            _ = try connection.execute("""
                UPDATE device d SET platform = c.platform FROM unnest($1::bigint[], $2::text[]) AS c(id, platform) WHERE d.id = c.id
                """, [integers(Array(platforms.keys)), texts(Array(platforms.values))])
        }
        if !inserts.isEmpty {
            _ = try connection.execute("""
                INSERT INTO device(app_key, user_id, device_id, platform, registered_at)
                SELECT a, u, d, p, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(a, u, d, p)
                """, [texts(inserts.map(\.appKey)), texts(inserts.map(\.userID)), texts(inserts.map(\.deviceID)),
                      texts(inserts.map(\.platform.rawValue)), .integer(now)])
        }
        return results
    }
}
