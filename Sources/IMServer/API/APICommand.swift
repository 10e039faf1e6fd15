import IMHTTP
import IMJSON
import IMProtocol

/// What one API request asks for, its fields checked; runs against a `ServerAPIBackend`.
enum APICommand: Hashable, Sendable {
    case issueToken(userID: String, name: String)
    case expireTokens(userIDs: [String], before: Int64)
    case block(userIDs: [String], minutes: Int)
    case unblock(userIDs: [String])
    case deactivate(userIDs: [String])
    case reactivate(userIDs: [String])
    case kick(userIDs: [String])
    case checkOnline(userID: String)
    case publish(from: String, to: [String], text: String)

    /// The longest `name` for getToken, in bytes (the provider's bound).
    static let maxNameBytes = 128
    /// The longest block, in minutes (30 days).
    static let maxBlockMinutes: Int64 = 43_200

    /// Reads the fields `endpoint` takes from `form`; other fields are ignored.
    init(_ endpoint: APIEndpoint, form: APIForm) throws(APIError) {
        switch endpoint {
        case .getToken:
            self = .issueToken(userID: try form.userID("userId"), name: try form.text("name", maxBytes: Self.maxNameBytes))
        case .expireTokens:
            let users = try form.userIDs("userId")
            self = .expireTokens(userIDs: users, before: try form.integer("time", in: 0...Int64.max, unit: " of ms"))
        case .block:
            let users = try form.userIDs("userId")
            let minutes = try form.integer("minute", in: 1...Self.maxBlockMinutes, unit: " of minutes")
            self = .block(userIDs: users, minutes: Int(minutes))
        case .unblock:
            self = .unblock(userIDs: try form.userIDs("userId"))
        case .deactivate:
            self = .deactivate(userIDs: try form.userIDs("userId"))
        case .reactivate:
            self = .reactivate(userIDs: try form.userIDs("userId"))
        case .kick:
            self = .kick(userIDs: try form.userIDs("userId"))
        case .checkOnline:
            self = .checkOnline(userID: try form.userID("userId"))
        case .publishPrivate:
            let from = try form.userID("fromUserId")
            let to = try form.userIDs("toUserId")
            let content = try form.single("content")
            let text: String
            do {
                text = try TextMessage.text(fromAPIContent: content)
            } catch {
                throw .field("content", error.reason)
            }
            self = .publish(from: from, to: to, text: text)
        }
    }

    /// Does the work through `backend` for `appKey`, for a request that came at `requestedAt`
    /// (ms); returns the members of the answer after `code`.
    func run(appKey: String, requestedAt: Int64, on backend: any ServerAPIBackend) async throws -> [(String, JSONValue)] {
        switch self {
        case let .issueToken(userID, _):
            let token = try await backend.issueToken(appKey: appKey, userID: userID)
            return [("userId", .string(userID)), ("token", .string(token))]
        case let .expireTokens(userIDs, before):
            try await backend.expireTokens(appKey: appKey, userIDs: userIDs, before: before)
        case let .block(userIDs, minutes):
            try await backend.block(appKey: appKey, userIDs: userIDs, minutes: minutes, requestedAt: requestedAt)
        case let .unblock(userIDs):
            try await backend.unblock(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
        case let .deactivate(userIDs):
            try await backend.deactivate(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
        case let .reactivate(userIDs):
            try await backend.reactivate(appKey: appKey, userIDs: userIDs, requestedAt: requestedAt)
        case let .kick(userIDs):
            try await backend.kick(appKey: appKey, userIDs: userIDs)
        case let .checkOnline(userID):
            let online = await backend.isOnline(appKey: appKey, userID: userID)
            return [("status", .string(online ? "1" : "0"))]
        case let .publish(from, to, text):
            let uid = try await backend.publish(appKey: appKey, from: from, to: to, text: text)
            return [("messageUID", .string(uid))]
        }
        return []
    }
}
