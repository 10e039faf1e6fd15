import IMProtocol
import IMStore

extension SQLiteServerStore {
    /// Registers several device logins in one transaction (logins that arrive together cost
    /// one commit); each result is `registerDevice`'s.
    public func registerDevices(_ registrations: [DeviceRegistration], now: Int64) async throws(ServerStoreError) -> [Bool] {
        try Self.validate(userIDs: registrations.map(\.userID))
        if let bad = registrations.first(where: { !IMIdentifier.isValidDeviceID($0.deviceID) }) {
            throw .invalidDeviceID(bad.deviceID)
        }
        return try await write("register \(registrations.count) device logins") { db in
            try registrations.map { item in
                try Self.register(db, appKey: item.appKey, userID: item.userID, deviceID: item.deviceID, platform: item.platform, now: now)
            }
        }
    }

    private static func register(
        _ db: Database, appKey: String, userID: String, deviceID: String, platform: Platform, now: Int64
    ) throws -> Bool {
        let known = try deviceRows(db, appKey: appKey, userID: userID)
        if let existing = known.first(where: { $0.deviceID == deviceID }) {
            try db.execute("UPDATE device SET platform = ? WHERE id = ? AND platform <> ?",
                           [.text(platform.rawValue), .integer(existing.id), .text(platform.rawValue)])
            return false
        }
        if known.count == 1, let placeholder = known.first, placeholder.deviceID == placeholderDeviceID {
            try db.execute("UPDATE device SET device_id = ?, platform = ?, registered_at = ? WHERE id = ?",
                           [.text(deviceID), .text(platform.rawValue), .integer(now), .integer(placeholder.id)])
        } else {
            try db.execute(SQL.insertDevice, [.text(appKey), .text(userID), .text(deviceID), .text(platform.rawValue), .integer(now)])
        }
        return true
    }

    /// The registered devices of `userID`, oldest first (the placeholder is not a device).
    public func devices(appKey: String, userID: String) async throws(ServerStoreError) -> [DeviceRecord] {
        try await read("list the devices of user \(userID)") { db in
            try db.fetchAll("""
                SELECT device_id, platform, registered_at FROM device
                WHERE app_key = ? AND user_id = ? AND device_id <> ? ORDER BY id
                """, [.text(appKey), .text(userID), .text(Self.placeholderDeviceID)])
                .map { row in
                    DeviceRecord(deviceID: row[0].string ?? "", platform: Platform(rawValue: row[1].string ?? "") ?? .default,
                                 registeredAt: row[2].int64 ?? 0)
                }
        }
    }

    /// The `device` rows of a user: real devices, or only the placeholder, or none.
    static func deviceRows(_ db: Database, appKey: String, userID: String) throws -> [(id: Int64, deviceID: String)] {
        try db.fetchAll(SQL.deviceRows, [.text(appKey), .text(userID)])
            .map { ($0[0].int64 ?? 0, $0[1].string ?? "") }
    }
}
