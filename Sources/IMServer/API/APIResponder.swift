import IMHTTP
import IMJSON
import IMProtocol

/// Turns one parsed API request into its answer: route, authenticate, read fields, run.
///
/// Routing is synchronous (`route`), so a wrong path or method is answered on the loop;
/// the rest (`respond`) awaits the backend. Order of checks: path (404), method (405),
/// signing headers, app key, signature, freshness, nonce (401 / 503), then fields (400).
struct APIResponder: Sendable {
    let backend: any ServerAPIBackend
    let replayGuard: NonceReplayGuard
    let clock: ServerClock
    /// Where answered requests are counted.
    let tally: APIRequestTally

    /// The endpoint `request` names, or the error to answer.
    func route(_ request: HTTPRequest) -> Result<APIEndpoint, APIError> {
        guard let endpoint = APIEndpoint(rawValue: request.path) else {
            return .failure(APIError(.notFound, "no API endpoint at \(request.path)"))
        }
        guard request.method == APIEndpoint.method else {
            return .failure(APIError(
                .methodNotAllowed, "\(endpoint.rawValue) takes POST, not \(request.method)",
                headers: [NamedValue(name: "Allow", value: APIEndpoint.method)]))
        }
        return .success(endpoint)
    }

    /// The answer to `request` for `endpoint`, success or not.
    func respond(to request: HTTPRequest, at endpoint: APIEndpoint) async -> HTTPResponse {
        // Before any store call: the request's place among calls on the same users (see ServerAPIBackend.block).
        let requestedAt = clock.wallMilliseconds()
        do throws(APIError) {
            let appKey = try await authenticate(request)
            let command = try APICommand(endpoint, form: try Self.form(of: request))
            let members: [(String, JSONValue)]
            do {
                members = try await command.run(appKey: appKey, requestedAt: requestedAt, on: backend)
            } catch {
                throw APIError(.internalServerError, code: .internalError, "\(endpoint.rawValue) failed: \(error)")
            }
            let body = JSONValue.object(JSONObject([("code", .integer(Int64(APIErrorCode.success.rawValue)))] + members))
            return HTTPResponse.json(.ok, body.encoded())
        } catch {
            return error.response
        }
    }

    /// The app key of a correctly signed, fresh, first-seen request.
    private func authenticate(_ request: HTTPRequest) async throws(APIError) -> String {
        let credentials: APICredentials
        do {
            credentials = try APICredentials { request.headers[$0] }
        } catch {
            throw .unauthorized(error.description)
        }
        guard let app = await backend.app(forKey: credentials.appKey) else {
            throw .unauthorized("unknown app key \(credentials.appKey)")
        }
        guard credentials.isSigned(withSecret: app.appSecret) else {
            throw .unauthorized("signature does not match: send lowercase hex SHA-1 of AppSecret + Nonce + Timestamp")
        }
        guard !app.blocked else {
            throw APIError(.forbidden, "app key \(app.appKey) is blocked")
        }
        let now = clock.wallMilliseconds()
        guard credentials.isFresh(now: now) else {
            throw .unauthorized(
                "timestamp \(credentials.timestamp) is more than 5 minutes from the server's clock (\(now) ms)")
        }
        switch replayGuard.admit(
            appKey: app.appKey, nonce: credentials.nonce, timestamp: credentials.timestampMillis, now: now)
        {
        case .accepted:
            // The guard bounds memory and answers floods here; the store remembers across
            // restarts and across the nodes of one PostgreSQL store.
            let expiry = replayGuard.expiry(timestamp: credentials.timestampMillis, now: now)
            let first: Bool
            do {
                first = try await backend.admitNonce(appKey: app.appKey, nonce: credentials.nonce, expiresAt: expiry, now: now)
            } catch {
                throw APIError(.serviceUnavailable, code: .internalError, "cannot record the request's nonce: \(error)")
            }
            guard first else { throw .unauthorized("nonce \(credentials.nonce) was already used within 5 minutes") }
            return app.appKey
        case .replayed:
            throw .unauthorized("nonce \(credentials.nonce) was already used within 5 minutes")
        case .full(let retryAfter):
            let seconds = (retryAfter + 999) / 1000
            throw APIError(
                .serviceUnavailable, code: .rateLimited,
                "too many requests for app key \(app.appKey) within 5 minutes; retry in \(seconds) s",
                headers: [NamedValue(name: "Retry-After", value: String(seconds))])
        }
    }

    /// The form fields of the body, which must be `application/x-www-form-urlencoded`.
    private static func form(of request: HTTPRequest) throws(APIError) -> APIForm {
        if let type = request.headers["Content-Type"] {
            let media = type.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }.lowercased()
            guard media == "application/x-www-form-urlencoded" else {
                throw .field("Content-Type", "'\(type)' is not application/x-www-form-urlencoded")
            }
        }
        do {
            return APIForm(fields: try FormFields(decoding: request.body))
        } catch {
            throw .field("body", error.description)
        }
    }
}
