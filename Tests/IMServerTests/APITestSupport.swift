import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import IMTransport
import Synchronization
import Testing
import TestSupport

/// A server clock the test sets; starts at a fixed instant.
final class APITestClock: Sendable {
    static let start: Int64 = 1_750_000_000_000
    private let millis = Atomic<Int64>(APITestClock.start)

    var now: Int64 { millis.load(ordering: .relaxed) }
    var clock: ServerClock {
        ServerClock(wallMilliseconds: { [self] in now }, monotonic: ServerClock.system.monotonic)
    }

    func advance(by milliseconds: Int64) {
        millis.add(milliseconds, ordering: .relaxed)
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

extension HTTPResponse {
    /// The JSON body.
    var json: JSONValue {
        get throws { try JSONValue(parsing: body) }
    }
}

/// Runs `body` on `loop` and returns what it returns.
func apiOnLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let accepted = loop.execute { continuation.resume(with: Result { try body() }) }
        if !accepted { continuation.resume(throwing: TestFailure("loop stopped")) }
    }
}
