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
            return try Self.register(registrations, now: now, on: connection)
        }
    }

    /// Takes the users' locks for this transaction, in the order every writer takes them (see
    /// the type's comment), so that two writers never wait for each other in a circle.
    /// Prepared: it reads no table, so one plan fits every batch, and planning it cost more
    /// than running it (11 us a login; issue 42).
    static func lockUsers(_ connection: PostgresConnection, _ users: [(appKey: String, userID: String)]) throws {
        let keys = PostgresTextArray.literal(users.map { $0.appKey + "\u{1}" + $0.userID })
        _ = try connection.execute(prepared: """
            SELECT pg_advisory_xact_lock(k) FROM (
                SELECT DISTINCT hashtextextended(u, 0) AS k FROM unnest($1::text[]) AS u ORDER BY 1) AS keys
            """, [.text(keys)])
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
}
