/// What the HTTP server API asks of the rest of the server (contract section 6).
///
/// The API layer checks signatures, timestamps, nonces and form fields; everything it then
/// changes or reads goes through this protocol, which the broker core implements. User ids
/// reach it already validated.
public protocol ServerAPIBackend: Sendable {
    /// The app with this key as the server sees it now (configuration plus overrides), if any.
    func app(forKey appKey: String) async -> AppSettings?
    /// Issues a new token for `userID`; earlier tokens stay valid.
    func issueToken(appKey: String, userID: String) async throws -> String
    /// Tokens of these users issued before `before` (ms) stop working at their next login.
    func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws
    /// Disconnects the users (0x98 `user-blocked`) and refuses their logins for `minutes`.
    ///
    /// `requestedAt` (ms) is when the request came: of a user's blocks and unblocks (and of
    /// its deactivations and reactivations) the one that came last stands, on every node,
    /// even when an earlier one's write reaches the store after it.
    func block(appKey: String, userIDs: [String], minutes: Int, requestedAt: Int64) async throws
    func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws
    /// Disconnects the users (0x98 `user-abandoned`) and refuses their logins until reactivated.
    func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws
    func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws
    /// Disconnects every device of the users (0x98 `kicked`).
    func kick(appKey: String, userIDs: [String]) async throws
    /// Records a signed request's nonce until `expiresAt`; false for a replay (the nonce is
    /// recorded and not expired), also one made to another node of the same store.
    func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws -> Bool
    /// Whether any device of the user is online.
    func isOnline(appKey: String, userID: String) async -> Bool
    /// Stores a text message from `from` to each of `to` and delivers it as in section 5;
    /// returns the message's uid.
    func publish(appKey: String, from: String, to: [String], text: String) async throws -> String
}

extension ServerAPIBackend {
    /// Blocks the users for `minutes`, as requested now (callers other than the HTTP API).
    public func block(appKey: String, userIDs: [String], minutes: Int) async throws {
        try await block(appKey: appKey, userIDs: userIDs, minutes: minutes, requestedAt: ServerClock.system.wallMilliseconds())
    }

    public func unblock(appKey: String, userIDs: [String]) async throws {
        try await unblock(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }

    public func deactivate(appKey: String, userIDs: [String]) async throws {
        try await deactivate(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }

    public func reactivate(appKey: String, userIDs: [String]) async throws {
        try await reactivate(appKey: appKey, userIDs: userIDs, requestedAt: ServerClock.system.wallMilliseconds())
    }
}
