import IMEncoding
import IMProtocol
import IMTransport
import MQTT

/// The server API's view of the broker: store changes first, then their effect on live connections.
final class ServerBackend: ServerAPIBackend {
    let core: LoopBound<BrokerCore>
    let loop: EventLoop
    let store: any ServerStore
    let clock: ServerClock
    let cluster: PostgresCluster?

    init(core: LoopBound<BrokerCore>, loop: EventLoop, store: any ServerStore, cluster: PostgresCluster?, clock: ServerClock) {
        self.core = core
        self.loop = loop
        self.store = store
        self.clock = clock
        self.cluster = cluster
    }

    /// Runs `body` with the core on its loop and returns its result, or `fallback` once the
    /// loop has stopped: a request still waiting on the store when the server's shutdown grace
    /// ended outlives the loop (its connection is gone, so the answer goes nowhere).
    private func onLoop<T: Sendable>(else fallback: T, _ body: @escaping @Sendable (BrokerCore) -> T) async -> T {
        let core = self.core
        return await withCheckedContinuation { continuation in
            let accepted = loop.execute { continuation.resume(returning: body(core.value)) }
            if !accepted { continuation.resume(returning: fallback) }
        }
    }

    func app(forKey appKey: String) async -> AppSettings? {
        await onLoop(else: nil) { $0.apps[appKey] }
    }

    func issueToken(appKey: String, userID: String) async throws -> String {
        guard let app = await app(forKey: appKey) else { throw ServerError.unknownApp(appKey) }
        guard !app.blocked else { throw ServerError.appBlocked(appKey) }
        return try Token.issue(appKey: appKey, secret: app.appSecret, userID: userID, issuedAt: clock.wallMilliseconds())
    }

    func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws {
        try await store.expireTokens(appKey: appKey, userIDs: userIDs, before: before)
    }

    func block(appKey: String, userIDs: [String], minutes: Int, requestedAt: Int64) async throws {
        let until = clock.wallMilliseconds() + Int64(minutes) * 60_000
        try await store.block(appKey: appKey, userIDs: userIDs, until: until, requestedAt: requestedAt)
        try await disconnectEverywhere(appKey: appKey, userIDs: userIDs, .administrativeAction, .userBlocked)
    }

    func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await store.unblock(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
    }

    func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await store.deactivate(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
        try await disconnectEverywhere(appKey: appKey, userIDs: userIDs, .administrativeAction, .userAbandoned)
    }

    func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await store.reactivate(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
    }

    func kick(appKey: String, userIDs: [String]) async throws {
        try await disconnectEverywhere(appKey: appKey, userIDs: userIDs, .administrativeAction, .kicked)
    }

    /// Disconnects the users' devices here and, with other nodes, tells them to do the same.
    private func disconnectEverywhere(
        appKey: String, userIDs: [String], _ reason: ReasonCode, _ name: IMErrorName
    ) async throws {
        await onLoop(else: ()) { $0.disconnect(appKey: appKey, userIDs: userIDs, reason, name) }
        try await cluster?.announce(.disconnect(appKey: appKey, userIDs: userIDs, reasonCode: reason.rawValue, errorName: name.rawValue))
    }

    func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws -> Bool {
        try await store.admitNonce(appKey: appKey, nonce: nonce, expiresAt: expiresAt, now: now)
    }

    func isOnline(appKey: String, userID: String) async -> Bool {
        if await onLoop(else: false, { $0.online.isOnline(UserKey(appKey: appKey, userID: userID)) }) { return true }
        let elsewhere = try? await cluster?.onlineElsewhere([(appKey, userID)], now: clock.wallMilliseconds())
        return elsewhere?.first?.isEmpty == false
    }

    func publish(appKey: String, from: String, to: [String], text: String) async throws -> String {
        let cid = "api-" + Hex.encode(try Crypto.randomBytes(12))
        let message = NewMessage(appKey: appKey, from: from, to: to, cid: cid, text: text, sentAt: clock.wallMilliseconds())
        let core = self.core
        let stored: StoredMessageResult = try await withCheckedThrowingContinuation { continuation in
            let accepted = loop.execute { core.value.publishing.store(message, quota: nil) { continuation.resume(with: $0) } }
            if !accepted { continuation.resume(throwing: ServerError.stopping) }
        }
        return stored.uid
    }
}
