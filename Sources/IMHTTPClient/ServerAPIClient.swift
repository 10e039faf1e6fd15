import IMEncoding
import IMHTTP
import IMJSON
import IMProtocol
import IMTransport

/// Calls the IM server's signed HTTP API (contract section 6) for one app key.
///
/// Every call is a POST of form fields with the headers App-Key, Nonce, Timestamp and
/// Signature (lowercase hex SHA-1 of secret + nonce + timestamp), on a connection of its own.
public struct ServerAPIClient: Sendable {
    public let baseURL: HTTPURL
    public let appKey: String
    let appSecret: Secret
    let loop: EventLoop
    /// The bound on one call: connecting, sending and reading the answer.
    public var timeout: Duration
    /// How an https base URL's server is verified (nil: system trust store, the URL's host).
    public var tls: TLSClientConfiguration?

    public init(
        baseURL: HTTPURL, appKey: String, appSecret: Secret, loop: EventLoop, timeout: Duration = .seconds(10),
        tls: TLSClientConfiguration? = nil
    ) {
        self.baseURL = baseURL
        self.appKey = appKey
        self.appSecret = appSecret
        self.loop = loop
        self.timeout = timeout
        self.tls = tls
    }

    /// A new token for `userID` (`/user/getToken.json`); earlier tokens stay valid.
    public func issueToken(userID: String) async throws(ServerAPIError) -> String {
        let path = "/user/getToken.json"
        let answer = try await call(path, [("userId", userID), ("name", userID)])
        guard let token = answer["token"]?.stringValue, !token.isEmpty else {
            throw .badAnswer(url: url(path), reason: "no token in the answer")
        }
        return token
    }

    /// Disconnects every device of the users (`/user/kick.json`).
    public func kick(userIDs: [String]) async throws(ServerAPIError) {
        _ = try await call("/user/kick.json", userIDs.map { ("userId", $0) })
    }

    /// Bans the users for `minutes` (`/user/block.json`).
    public func block(userIDs: [String], minutes: Int) async throws(ServerAPIError) {
        _ = try await call("/user/block.json", userIDs.map { ("userId", $0) } + [("minute", String(minutes))])
    }

    /// Deactivates the users (`/user/deactivate.json`): their devices end with userAbandon.
    public func deactivate(userIDs: [String]) async throws(ServerAPIError) {
        _ = try await call("/user/deactivate.json", userIDs.map { ("userId", $0) })
    }

    /// Lets deactivated users log in again (`/user/reactivate.json`).
    public func reactivate(userIDs: [String]) async throws(ServerAPIError) {
        _ = try await call("/user/reactivate.json", userIDs.map { ("userId", $0) })
    }

    public func unblock(userIDs: [String]) async throws(ServerAPIError) {
        _ = try await call("/user/unblock.json", userIDs.map { ("userId", $0) })
    }

    /// Tokens issued before `before` (ms since the epoch) stop working (`/user/token/expire.json`).
    public func expireTokens(userIDs: [String], before: Int64) async throws(ServerAPIError) {
        _ = try await call("/user/token/expire.json", userIDs.map { ("userId", $0) } + [("time", String(before))])
    }

    /// Whether any device of the user is online (`/user/checkOnline.json`).
    public func isOnline(userID: String) async throws(ServerAPIError) -> Bool {
        let answer = try await call("/user/checkOnline.json", [("userId", userID)])
        return answer["status"]?.stringValue == "1"
    }

    /// POSTs `fields` to `path` under the base URL; returns the answer of a `code` 200.
    public func call(_ path: String, _ fields: [(String, String)]) async throws(ServerAPIError) -> JSONObject {
        let target = url(path)
        let request = try signedRequest(path: path, body: FormFields(fields).encoded())
        let response: HTTPResponse
        do {
            response = try await HTTPClient.perform(request, to: baseURL, tls: tls, on: loop, timeout: timeout)
        } catch .untrusted(let reason) {
            throw .untrusted(url: target, reason: reason)
        } catch {
            throw .unreachable(url: target, reason: error.description)
        }
        let answer = (try? JSONValue(parsing: response.body))?.objectValue
        let code = answer?["code"]?.integerValue.map(Int.init)
        guard response.status.rawValue == 200, code == 200, let answer else {
            let message = answer?["errorMessage"]?.stringValue
                ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            guard answer != nil || response.status.rawValue != 200 else {
                throw .badAnswer(url: target, reason: "not the API's JSON: \(message)")
            }
            throw .refused(url: target, status: response.status.rawValue, code: code, message: message)
        }
        return answer
    }

    /// The full URL of `path` under the base URL, for messages.
    func url(_ path: String) -> String {
        "\(baseURL.isSecure ? "https" : "http")://\(baseURL.hostHeader)\(joined(path))"
    }

    private func joined(_ path: String) -> String {
        var base = Substring(baseURL.path)
        while base.hasSuffix("/") { base = base.dropLast() }
        return base + path
    }

    private func signedRequest(path: String, body: String) throws(ServerAPIError) -> HTTPRequest {
        let nonce: String
        do {
            nonce = Hex.encode(try Crypto.randomBytes(8))
        } catch {
            throw .unreachable(url: url(path), reason: "no random bytes for the nonce: \(error)")
        }
        let timestamp = String(WallClock.milliseconds())
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: baseURL.hostHeader)
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        headers.add(name: "User-Agent", value: "imsh")
        headers.add(name: "Connection", value: "close")
        headers.add(name: APICredentials.appKeyHeader, value: appKey)
        headers.add(name: APICredentials.nonceHeader, value: nonce)
        headers.add(name: APICredentials.timestampHeader, value: timestamp)
        headers.add(
            name: APICredentials.signatureHeader,
            value: APISignature.compute(appSecret: appSecret.value, nonce: nonce, timestamp: timestamp))
        return HTTPRequest(method: "POST", target: joined(path), headers: headers, body: Array(body.utf8))
    }
}
