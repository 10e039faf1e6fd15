import IMProtocol

extension ServerStore {
    /// What the server knows about `userID` of `appKey`; `.initial` for a user never touched.
    public func userState(appKey: String, userID: String) async throws(ServerStoreError) -> UserState {
        try await userStates([(appKey, userID)])[0]
    }

    /// Records that `deviceID` logged in as `userID`; returns true the first time.
    @discardableResult
    public func registerDevice(
        appKey: String, userID: String, deviceID: String, platform: Platform, now: Int64
    ) async throws(ServerStoreError) -> Bool {
        let registration = DeviceRegistration(appKey: appKey, userID: userID, deviceID: deviceID, platform: platform)
        return try await registerDevices([registration], now: now)[0]
    }

    /// Stores one message and queues it for every device of every recipient.
    public func storeMessage(
        appKey: String, from: String, to: [String], cid: String, text: String, sentAt: Int64
    ) async throws(ServerStoreError) -> StoredMessageResult {
        let message = NewMessage(appKey: appKey, from: from, to: to, cid: cid, text: text, sentAt: sentAt)
        return try await storeMessages([message], quota: nil)[0]
    }

    /// Blocks the users until `until`, as received now.
    public func block(appKey: String, userIDs: [String], until: Int64) async throws(ServerStoreError) {
        try await block(appKey: appKey, userIDs: userIDs, until: until, requestedAt: ServerClock.system.wallMilliseconds())
    }

    /// Ends the users' blocks, as received now.
    public func unblock(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await unblock(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }

    /// Deactivates the users, as received now.
    public func deactivate(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await deactivate(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }

    /// Reactivates the users, as received now.
    public func reactivate(appKey: String, userIDs: [String]) async throws(ServerStoreError) {
        try await reactivate(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }

    /// Stores messages with no quota (what the server API and tests send).
    public func storeMessages(_ messages: [NewMessage]) async throws(ServerStoreError) -> [StoredMessageResult] {
        try await storeMessages(messages, quota: nil)
    }

    /// The device's queued messages, oldest first, at most `limit`.
    public func pending(appKey: String, userID: String, deviceID: String, limit: Int) async throws(ServerStoreError) -> [QueuedMessage] {
        try await pending(appKey: appKey, userID: userID, deviceID: deviceID, after: 0, limit: limit)
    }

    /// Removes one message from the device's queue (its PUBACK arrived); returns whether it was there.
    @discardableResult
    public func acknowledge(
        appKey: String, userID: String, deviceID: String, messageID: Int64
    ) async throws(ServerStoreError) -> Bool {
        try await acknowledge(appKey: appKey, userID: userID, deviceID: deviceID, messageIDs: [messageID]) > 0
    }

    /// The configured apps with the store's overrides applied.
    public func effectiveApps(configured: [AppSettings]) async throws(ServerStoreError) -> [AppSettings] {
        AppOverride.effectiveApps(configured: configured, overrides: try await appOverrides())
    }

    /// Purges, for every app, what is older than its offline retention.
    @discardableResult
    public func purgeExpired(apps: [AppSettings], now: Int64) async throws(ServerStoreError) -> PurgeResult {
        var total = PurgeResult()
        for app in apps {
            let retention = app.offlineRetention / .milliseconds(1)
            let purged = try await purgeExpired(appKey: app.appKey, before: now - Int64(retention))
            total = total + purged
        }
        return total
    }
}
