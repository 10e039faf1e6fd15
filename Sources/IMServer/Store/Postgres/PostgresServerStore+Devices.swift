import IMPostgres
import IMProtocol

extension PostgresServerStore {
    public func registerDevices(_ registrations: [DeviceRegistration], now: Int64) async throws(ServerStoreError) -> [Bool] {
        guard !registrations.isEmpty else { return [] }
        try Self.validate(userIDs: registrations.map(\.userID))
        if let bad = registrations.first(where: { !IMIdentifier.isValidDeviceID($0.deviceID) }) {
            throw .invalidDeviceID(bad.deviceID)
        }
        return try await write("register \(registrations.count) device logins") { connection in
            try Self.lockUsers(connection, registrations.map { ($0.appKey, $0.userID) })
            return try registrations.map { try Self.register(connection, $0, now: now) }
        }
    }

    /// Takes the users' locks for this transaction, in the order every writer takes them (see
    /// the type's comment), so that two writers never wait for each other in a circle.
    static func lockUsers(_ connection: PostgresConnection, _ users: [(appKey: String, userID: String)]) throws {
        let keys = PostgresTextArray.literal(users.map { $0.appKey + "\u{1}" + $0.userID })
        _ = try connection.execute("""
            SELECT pg_advisory_xact_lock(k) FROM (
                SELECT DISTINCT hashtextextended(u, 0) AS k FROM unnest($1::text[]) AS u ORDER BY 1) AS keys
            """, [.text(keys)])
    }

    private static func register(_ connection: PostgresConnection, _ item: DeviceRegistration, now: Int64) throws -> Bool {
        let known = try deviceRows(connection, appKey: item.appKey, userID: item.userID)
        let platform = item.platform.rawValue
        if let existing = known.first(where: { $0.deviceID == item.deviceID }) {
            _ = try connection.execute("UPDATE device SET platform = $1 WHERE id = $2 AND platform <> $1",
                                       [.text(platform), .integer(existing.id)])
            return false
        }
        if known.count == 1, let placeholder = known.first, placeholder.deviceID == Self.placeholderDeviceID {
            _ = try connection.execute("UPDATE device SET device_id = $1, platform = $2, registered_at = $3 WHERE id = $4",
                                       [.text(item.deviceID), .text(platform), .integer(now), .integer(placeholder.id)])
        } else {
            _ = try connection.execute("""
                INSERT INTO device(app_key, user_id, device_id, platform, registered_at) VALUES ($1, $2, $3, $4, $5)
                """, [.text(item.appKey), .text(item.userID), .text(item.deviceID), .text(platform), .integer(now)])
        }
        return true
    }

    public func devices(appKey: String, userID: String) async throws(ServerStoreError) -> [DeviceRecord] {
        try await read("list the devices of user \(userID)") { connection in
            try connection.execute("""
                SELECT device_id, platform, registered_at FROM device
                WHERE app_key = $1 AND user_id = $2 AND device_id <> '' ORDER BY id
                """, [.text(appKey), .text(userID)]).rows.map { row in
                DeviceRecord(deviceID: row[0].string ?? "", platform: Platform(rawValue: row[1].string ?? "") ?? .default,
                             registeredAt: row[2].int64 ?? 0)
            }
        }
    }

    /// The `device` rows of a user: real devices, or only the placeholder, or none.
    static func deviceRows(_ connection: PostgresConnection, appKey: String, userID: String) throws -> [(id: Int64, deviceID: String)] {
        try connection.execute("SELECT id, device_id FROM device WHERE app_key = $1 AND user_id = $2 ORDER BY device_id",
                               [.text(appKey), .text(userID)]).rows.map { ($0[0].int64 ?? 0, $0[1].string ?? "") }
    }
}
