import Foundation
import IMEngine
import IMHTTP
import Synchronization
import Testing

/// One condition, one status and code, whatever the token source; a source that does not
/// answer is retried on the backoff schedule like an unreachable server.
@Suite(.timeLimit(.minutes(1)))
struct TokenConditionTests {
    enum Kind: String, CaseIterable, Sendable { case command, url, provider }

    static let cases: [(Int, ConnectionStatus, ConnectErrorCode)] = [
        (31004, .tokenIncorrect, .tokenIncorrect),
        (31020, .tokenIncorrect, .tokenExpired),
        (31008, .unconnected, .appBlockedOrDeleted),
    ]

    /// A source of `kind` that names condition `code` the way that kind can: a command's output
    /// and exit status, an HTTP refusal's body, a provider's thrown failure.
    static func source(_ kind: Kind, naming code: Int, server: RawTCPServer?) -> TokenSource {
        switch kind {
        case .command:
            return .command("echo '{\"code\": \(code)}'; exit 1")
        case .url:
            return .url(try! HTTPURL(parsing: "http://127.0.0.1:\(server!.port)/token"))
        case .provider:
            let condition = TokenCondition.named(code: code)!
            return .provider(TokenProvider(name: "test provider") {
                throw TokenProviderFailure("the test says \(code)", condition: condition)
            })
        }
    }

    static func answering(_ status: String, _ body: String) throws -> RawTCPServer {
        try RawTCPServer { fd in
            _ = RawTCPServer.receive(fd, until: Array("\r\n\r\n".utf8))
            RawTCPServer.send(fd, Array("HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        }
    }

    /// Whether the session is given its user id: without one, only the token names the user
    /// and the database, so every failure comes before the database opens, and must mean the same.
    static let userIDs: [String?] = ["dave", nil]

    @Test(arguments: Kind.allCases, 0..<3)
    func everySourceGivesOneConditionOneCode(kind: Kind, index: Int) async throws {
        for userID in Self.userIDs { try await expectCondition(kind: kind, index: index, userID: userID) }
    }

    func expectCondition(kind: Kind, index: Int, userID: String?) async throws {
        let (code, status, expected) = Self.cases[index]
        let server = kind == .url ? try Self.answering("403 Forbidden", "{\"code\": \(code)}") : nil
        defer { server?.stop() }
        try await withBroker { broker, test in
            let session = test.session("dave") {
                $0.token = nil
                $0.userID = userID
                $0.tokenSource = Self.source(kind, naming: code, server: server)
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion()
            #expect(completion?.error?.status == status, "\(kind) \(code) \(String(describing: userID)): \(String(describing: completion))")
            #expect(completion?.error?.code == expected, "\(kind) \(code) \(String(describing: userID))")
            #expect(broker.connectionCount == 0, "a refusal from the source makes no connection")
            await session.close()
        }
    }

    @Test(arguments: [Kind.url, Kind.provider], userIDs)
    func aSilentSourceIsRetriedOnTheScheduleUntilItAnswers(kind: Kind, userID: String?) async throws {
        let token = TestTokens.token(for: "dave")
        let asked = Mutex(0)
        let server = try RawTCPServer { fd in
            _ = RawTCPServer.receive(fd, until: Array("\r\n\r\n".utf8))
            let first = asked.withLock { $0 += 1; return $0 <= 3 }
            let (status, body) = first ? ("500 Internal Server Error", "down") : ("200 OK", token)
            RawTCPServer.send(fd, Array("HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        }
        defer { server.stop() }
        let url = try HTTPURL(parsing: "http://127.0.0.1:\(server.port)/token")
        let provider = TokenProvider(name: "flaky provider") {
            let silent = asked.withLock { $0 += 1; return $0 <= 3 }
            if silent { throw TokenProviderFailure("down for now", condition: .unavailable) }
            return token
        }
        try await withBroker { broker, test in
            let events = test.engine.hub.subscribe()
            let session = test.session("dave") {
                $0.token = nil
                $0.userID = userID
                $0.timeout = nil
                $0.tokenSource = kind == .url ? .url(url) : .provider(provider)
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion(within: .seconds(20))
            #expect(completion?.userID == "dave", "\(String(describing: completion))")
            #expect(recorder.events.first == .databaseOpened(isRecreated: false, error: nil), "the database opened first: \(recorder.events)")
            #expect(asked.withLock { $0 } == 4, "asked until it answered")
            #expect(broker.connects.first?.password == Array(token.utf8))
            var retries = 0
            while let event = events.nextBlocking(until: Date()) {
                if case .retryScheduled = event.kind { retries += 1 }
            }
            #expect(retries >= 1, "the silent source's failures were planned retries")
            await session.close()
        }
    }

    @Test(arguments: userIDs)
    func aSourceSilentPastTheTimeoutEndsWithTheTimeout(userID: String?) async throws {
        let server = try Self.answering("503 Service Unavailable", "busy")
        defer { server.stop() }
        try await withBroker { broker, test in
            let session = test.session("dave") {
                $0.token = nil
                $0.userID = userID
                $0.timeout = .seconds(1.5)
                $0.tokenSource = .url(try! HTTPURL(parsing: "http://127.0.0.1:\(server.port)/token"))
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion(within: .seconds(10))
            #expect(completion?.error?.status == .timeout)
            #expect(completion?.error?.code == .connectTimeout)
            let message = completion?.error.map { "\($0)" } ?? ""
            #expect(message.contains("last attempt") && message.contains("HTTP 503"), "\(message)")
            #expect(broker.connectionCount == 0)
            await session.close()
        }
    }

    /// A token that names no user, for a session only the token can name the user of, is the
    /// token's fault (31004, as the server would say), not the database's (33002).
    @Test func aMalformedTokenIsATokenIncorrect() async throws {
        try await withBroker { broker, test in
            let session = test.session("dave") {
                $0.token = nil
                $0.userID = nil
                $0.tokenSource = .command("echo not-a-token")
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion(within: .seconds(10))
            #expect(completion?.error?.status == .tokenIncorrect, "\(String(describing: completion))")
            #expect(completion?.error?.code == .tokenIncorrect, "\(String(describing: completion))")
            #expect(broker.connectionCount == 0, "nothing to log in with")
            await session.close()
        }
    }
}
