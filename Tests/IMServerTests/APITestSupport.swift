import IMHTTP
import IMProtocol
@testable import IMServer
import IMTransport
import Synchronization
import Testing

/// A failure inside an API test helper, with what went wrong.
struct APITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` with a deadline; past it the body is cancelled and the test fails.
func apiWithTimeout<T: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw APITestFailure("timed out after \(limit)")
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// A server clock the test sets; starts at a fixed instant.
final class APITestClock: Sendable {
    static let start: Int64 = 1_750_000_000_000
    private let millis = Atomic<Int64>(APITestClock.start)

    var now: Int64 { millis.load(ordering: .relaxed) }
    var clock: APIClock { APIClock { [self] in now } }

    func advance(by milliseconds: Int64) {
        millis.add(milliseconds, ordering: .relaxed)
    }
}

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

    private func record(_ call: Call) async throws {
        calls.append(call)
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

    func block(appKey: String, userIDs: [String], minutes: Int) async throws {
        try await record(.block(app: appKey, users: userIDs, minutes: minutes))
    }

    func unblock(appKey: String, userIDs: [String]) async throws {
        try await record(.unblock(app: appKey, users: userIDs))
    }

    func deactivate(appKey: String, userIDs: [String]) async throws {
        try await record(.deactivate(app: appKey, users: userIDs))
    }

    func reactivate(appKey: String, userIDs: [String]) async throws {
        try await record(.reactivate(app: appKey, users: userIDs))
    }

    func kick(appKey: String, userIDs: [String]) async throws {
        try await record(.kick(app: appKey, users: userIDs))
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

/// Signs API requests the way an app server does.
struct APISigner: Sendable {
    var appKey = APITestBackend.app.appKey
    var secret = APITestBackend.app.appSecret
    /// Header names start with this (`""` or `"RC-"`).
    var prefix = ""

    static let other = APISigner(appKey: APITestBackend.otherApp.appKey, secret: APITestBackend.otherApp.appSecret)

    /// A nonce no other request of the test run uses (≤ 18 characters).
    static func freshNonce() -> String {
        String(UInt64.random(in: 0...UInt64(1 << 60)), radix: 36)
    }

    func headers(nonce: String = freshNonce(), timestamp: Int64 = APITestClock.start) -> [(String, String)] {
        let time = String(timestamp)
        return [
            (prefix + "App-Key", appKey), (prefix + "Nonce", nonce), (prefix + "Timestamp", time),
            (prefix + "Signature", APISignature.compute(appSecret: secret, nonce: nonce, timestamp: time)),
        ]
    }
}

/// Builds API requests.
enum APIRequests {
    static func post(
        _ path: String, _ fields: [(String, String)], signing: [(String, String)]? = APISigner().headers(),
        extraHeaders: [(String, String)] = []
    ) -> HTTPRequest {
        var headers = HTTPHeaders([("Host", "127.0.0.1"), ("Content-Type", "application/x-www-form-urlencoded")])
        for (name, value) in (signing ?? []) + extraHeaders { headers.add(name: name, value: value) }
        return HTTPRequest(method: "POST", target: path, headers: headers, body: Array(FormFields(fields).encoded().utf8))
    }
}

/// An HTTP/1.1 client on a raw IMTransport connection, reading with IMHTTP's response parser.
struct APITestClient: Sendable {
    let connection: Connection
    private let frames: InboundFrames

    static func connect(port: UInt16, on loop: EventLoop) async throws -> APITestClient {
        // Room to queue a flood the server does not read (see the back-pressure test).
        let limits = ConnectionOptions(outboundLimit: 64 << 20, framing: .raw)
        let options = ConnectOptions(timeout: .seconds(5), connection: limits)
        let connection = try await Connection.connect(to: "127.0.0.1", port: port, options: options, on: loop)
        return APITestClient(connection: connection, frames: connection.frames())
    }

    private init(connection: Connection, frames: InboundFrames) {
        self.connection = connection
        self.frames = frames
    }

    func send(_ bytes: [UInt8]) async throws {
        try await connection.write(bytes)
    }

    func send(_ request: HTTPRequest) async throws {
        try await send(request.serialized())
    }

    /// A reader of the responses; use one per client.
    func reader() -> APIResponseReader {
        APIResponseReader(frames: frames.makeAsyncIterator())
    }

    func close() {
        connection.close(.abortive)
    }
}

/// Reads responses (and the end of the stream) from one test client.
struct APIResponseReader {
    fileprivate var frames: InboundFrames.Iterator
    private var parser = HTTPResponseParser()
    /// Every byte read so far, for checks below the parser (100 Continue).
    private(set) var raw: [UInt8] = []

    fileprivate init(frames: InboundFrames.Iterator) {
        self.frames = frames
    }

    /// The next whole response; throws if the server closes first.
    mutating func next() async throws -> HTTPResponse {
        while true {
            if let response = try parser.nextResponse() { return response }
            guard let chunk = try await readChunk() else {
                throw APITestFailure("the server closed the connection before a whole response")
            }
            parser.append(chunk)
        }
    }

    /// The bytes read so far once there are at least `count` (they also go to the parser).
    mutating func rawBytes(atLeast count: Int) async throws -> [UInt8] {
        while raw.count < count {
            guard let chunk = try await readChunk() else { throw APITestFailure("closed after \(raw.count) bytes") }
            parser.append(chunk)
        }
        return raw
    }

    /// Reads until the server closes; returns the responses that came first.
    mutating func untilClosed() async throws -> [HTTPResponse] {
        var responses: [HTTPResponse] = []
        while true {
            if let response = try parser.nextResponse() {
                responses.append(response)
                continue
            }
            guard let chunk = try await readChunk() else {
                if let last = try parser.finish() { responses.append(last) }
                return responses
            }
            parser.append(chunk)
        }
    }

    /// The next chunk, or nil once the server closed (FIN or reset).
    private mutating func readChunk() async throws -> [UInt8]? {
        do {
            guard let chunk = try await frames.next() else { return nil }
            raw += chunk
            return chunk
        } catch .closedByPeer, .connectionReset {
            return nil
        }
    }
}

extension HTTPResponse {
    /// The JSON body.
    var json: JSONValue {
        get throws { try JSONValue(parsing: body) }
    }
}

/// An API server on 127.0.0.1 with its backend, clock and a client loop.
struct APITestServer: Sendable {
    let server: APIServer
    let backend: APITestBackend
    let clock: APITestClock
    let clientLoop: EventLoop
    var port: UInt16 { server.localAddress.port }

    func client() async throws -> APITestClient {
        try await APITestClient.connect(port: port, on: clientLoop)
    }

    /// Sends one request on a new connection and returns the answer.
    func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let client = try await client()
        defer { client.close() }
        var reader = client.reader()
        try await client.send(request)
        return try await reader.next()
    }

    /// Runs `body` against a fresh server within `limit`; closes everything after.
    static func run(
        limits: ServerLimits = ServerLimits(), options: APIServerOptions = APIServerOptions(),
        backend: APITestBackend = APITestBackend(), limit: Duration = .seconds(20),
        _ body: @escaping @Sendable (APITestServer) async throws -> Void
    ) async throws {
        let group = try EventLoopGroup(threads: 2, name: "api")
        let clientLoop = try EventLoop(name: "api-client")
        defer {
            clientLoop.shutdown()
            group.shutdown()
        }
        let clock = APITestClock()
        var options = options
        options.clock = clock.clock
        let server = try APIServer(group: group, backend: backend, limits: limits, options: options)
        let fixture = APITestServer(server: server, backend: backend, clock: clock, clientLoop: clientLoop)
        do {
            try await apiWithTimeout(limit) { try await body(fixture) }
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }
}

/// Runs `body` on `loop` and returns what it returns.
func apiOnLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let accepted = loop.execute { continuation.resume(with: Result { try body() }) }
        if !accepted { continuation.resume(throwing: APITestFailure("loop stopped")) }
    }
}
