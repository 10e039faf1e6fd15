@testable import IMServer

/// A backend that records what the API asked of it and answers with canned results.
actor APITestBackend: ServerAPIBackend {
    enum Call: Hashable {
        case issueToken(app: String, user: String)
        case expireTokens(app: String, users: [String], before: Int64)
        case block(app: String, users: [String], minutes: Int)
        case unblock(app: String, users: [String])
        case deactivate(app: String, users: [String])
        case reactivate(app: String, users: [String])
        case kick(app: String, users: [String])
        case isOnline(app: String, user: String)
        case publish(app: String, from: String, to: [String], text: String)
    }

    struct Refusal: Error, CustomStringConvertible {
        var description: String { "the store is read-only" }
    }

    private(set) var calls: [Call] = []
    private var apps: [String: AppSettings]
    private var online: Set<String> = []
    private var failing = false
    private var delay: Duration?
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    init(apps: [AppSettings] = [APITestBackend.app, APITestBackend.otherApp]) {
        self.apps = Dictionary(uniqueKeysWithValues: apps.map { ($0.appKey, $0) })
    }

    static let app = AppSettings(appKey: "app-one", appSecret: "secret-one")
    static let otherApp = AppSettings(appKey: "app-two", appSecret: "secret-two")

    func setOnline(_ users: Set<String>) { online = users }
    func setFailing(_ failing: Bool) { self.failing = failing }
    /// Every recorded call then waits `delay` before answering.
    func setDelay(_ delay: Duration?) { self.delay = delay }
    func setApp(_ app: AppSettings) { apps[app.appKey] = app }

    /// While holding, every recorded call waits for `release()` before answering.
    func hold() { holding = true }

    func release() {
        holding = false
        let waiting = held
        held = []
        for call in waiting { call.resume() }
    }

    private func record(_ call: Call) async throws {
        calls.append(call)
        if holding { await withCheckedContinuation { held.append($0) } }
        if let delay { try await Task.sleep(for: delay) }
        if failing { throw Refusal() }
    }

    func app(forKey appKey: String) async -> AppSettings? { apps[appKey] }

    func issueToken(appKey: String, userID: String) async throws -> String {
        try await record(.issueToken(app: appKey, user: userID))
        return "token-\(userID)-\(calls.count)"
    }

    func expireTokens(appKey: String, userIDs: [String], before: Int64) async throws {
        try await record(.expireTokens(app: appKey, users: userIDs, before: before))
    }

    func block(appKey: String, userIDs: [String], minutes: Int, requestedAt: Int64) async throws {
        try await record(.block(app: appKey, users: userIDs, minutes: minutes))
    }

    func unblock(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await record(.unblock(app: appKey, users: userIDs))
    }

    func deactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await record(.deactivate(app: appKey, users: userIDs))
    }

    func reactivate(appKey: String, userIDs: [String], requestedAt: Int64) async throws {
        try await record(.reactivate(app: appKey, users: userIDs))
    }

    func kick(appKey: String, userIDs: [String]) async throws {
        try await record(.kick(app: appKey, users: userIDs))
    }

    /// Nonces as a store keeps them: until their expiry.
    private var nonces: [String: Int64] = [:]

    func admitNonce(appKey: String, nonce: String, expiresAt: Int64, now: Int64) async throws -> Bool {
        let key = appKey + " " + nonce
        if let expiry = nonces[key], expiry > now { return false }
        nonces[key] = expiresAt
        return true
    }

    func isOnline(appKey: String, userID: String) async -> Bool {
        try? await record(.isOnline(app: appKey, user: userID))
        return online.contains(userID)
    }

    func publish(appKey: String, from: String, to: [String], text: String) async throws -> String {
        try await record(.publish(app: appKey, from: from, to: to, text: text))
        return "uid-\(calls.count)"
    }
}
