import Foundation
import IMEngine
import IMHTTP
import IMProtocol
import IMTransport
import MQTT
import Synchronization
import Testing
import TestSupport

/// Several servers, SOCKS5 proxies, and token sources.
@Suite(.timeLimit(.minutes(1)))
struct SessionNetworkPathTests {
    @Test func unreachableFirstServerLeavesItToTheSecond() async throws {
        let closed = try LoopbackPortHold()
        defer { closed.release() }
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [ServerAddress(host: "127.0.0.1", port: closed.port), broker.address],
                                  stagger: .seconds(10))
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            let started = ContinuousClock.now
            let user = try await session.connect()
            #expect(user == "alice")
            // A refused connection starts the next server at once, not after the 10 s stagger
            // (the bound leaves room for a busy machine and still tells the two apart).
            #expect(ContinuousClock.now - started < .seconds(8))
            #expect(await session.connectedServer == broker.address)
            #expect(await session.statuses == [.connecting, .connected])
            await session.close()
        }
        await test.shutdown()
    }

    @Test func silentFirstServerIsOvertakenAfterTheStaggerAndClosed() async throws {
        let silent = try ScriptedBroker(.init(connack: { _, _ in nil }))
        let broker = try ScriptedBroker()
        let test = try TestEngine(servers: [silent.address, broker.address], stagger: .milliseconds(200))
        defer {
            silent.shutdown()
            broker.shutdown()
        }
        try await withTimeout {
            let session = test.session()
            let started = ContinuousClock.now
            _ = try await session.connect()
            let took = ContinuousClock.now - started
            // After the stagger, and well before the silent server's attempt would time out (10 s).
            #expect(took >= .milliseconds(200) && took < .seconds(8), "took \(took)")
            #expect(await session.connectedServer == broker.address)
            #expect(silent.connects.count == 1)
            #expect(await eventually { silent.isClosed(0) })
            await session.close()
        }
        await test.shutdown()
    }

    @Test func unreachableProxyIsTerminal() async throws {
        let closed = try LoopbackPortHold()
        defer { closed.release() }
        try await withBroker { broker, test in
            let session = test.session { $0.proxy = SOCKS5Proxy(host: "127.0.0.1", port: closed.port) }
            await #expect(throws: EngineError.terminated(SessionTermination(.proxyUnavailable, .proxyUnavailable))) {
                try await session.connect()
            }
            #expect(await session.statuses == [.connecting, .proxyUnavailable])
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.connectionCount == 0)
            await session.close()
        }
    }

    @Test func refusingProxyIsTerminalWithoutRetry() async throws {
        // Accepts "no authentication", then answers every CONNECT with 0x05 connection refused.
        let proxy = try RawTCPServer { fd in
            let greeting = RawTCPServer.receive(fd, count: 2)
            guard greeting.count == 2 else { return }
            _ = RawTCPServer.receive(fd, count: Int(greeting[1]))
            RawTCPServer.send(fd, [5, 0])
            let head = RawTCPServer.receive(fd, count: 4)
            guard head.count == 4 else { return }
            let rest = head[3] == 1 ? 6 : head[3] == 4 ? 18 : Int(RawTCPServer.receive(fd, count: 1).first ?? 0) + 2
            _ = RawTCPServer.receive(fd, count: rest)
            RawTCPServer.send(fd, [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
        }
        defer { proxy.stop() }
        try await withBroker { broker, test in
            let session = test.session { $0.proxy = SOCKS5Proxy(host: "127.0.0.1", port: proxy.port) }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion()
            #expect(completion?.error?.status == .proxyUnavailable)
            #expect(completion?.error?.code?.rawValue == 31028)
            try await Task.sleep(for: .milliseconds(300))
            #expect(proxy.connectionCount == 1)
            #expect(broker.connectionCount == 0)
            await session.close()
        }
    }

    /// A token source command that prints the contents of a file the test rewrites.
    private static func tokenFile(_ directory: TemporaryDirectory, _ token: String) throws -> (path: String, source: TokenSource) {
        let path = directory.path + "/token.txt"
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return (path, .command("cat '\(path)'"))
    }

    @Test func refusedTokenIsReplacedOnceFromTheSource() async throws {
        let broker = try ScriptedBroker(.init(connack: { index, connect in
            index == 0 ? ScriptedBroker.refuse(.badUserNameOrPassword, .tokenExpired) : ScriptedBroker.accept(connect)
        }))
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        let fresh = TestTokens.token(for: "alice", issuedAt: 2)
        let (_, source) = try Self.tokenFile(test.directory, fresh)
        try await withTimeout {
            let session = test.session { $0.tokenSource = source }
            let user = try await session.connect()
            #expect(user == "alice")
            #expect(broker.connects.map { String(decoding: $0.password ?? [], as: UTF8.self) }
                    == [TestTokens.token(for: "alice"), fresh])
            // The refused attempt is reported with the refusal's code: one refresh, seen.
            #expect(await session.statuses == [.connecting, .connecting, .connected])
            await session.close()
        }
        await test.shutdown()
    }

    @Test func secondTokenRefusalInARowIsTerminal() async throws {
        try await withBroker(.init(connack: { _, _ in ScriptedBroker.refuse(.badUserNameOrPassword, .tokenIncorrect) })) { broker, test in
            let fresh = TestTokens.token(for: "alice", issuedAt: 2)
            let (_, source) = try Self.tokenFile(test.directory, fresh)
            let session = test.session { $0.tokenSource = source }
            await #expect(throws: EngineError.terminated(SessionTermination(.tokenIncorrect, .tokenIncorrect))) {
                try await session.connect()
            }
            try await Task.sleep(for: .milliseconds(400))
            #expect(broker.connects.count == 2)
            #expect(broker.connects.last?.password == Array(fresh.utf8))
            #expect(await session.statuses == [.connecting, .connecting, .tokenIncorrect])
            await session.close()
        }
    }

    @Test func tokenRefusalWithoutASourceIsTerminalAtOnce() async throws {
        try await withBroker(.init(connack: { _, _ in ScriptedBroker.refuse(.badUserNameOrPassword, .tokenIncorrect) })) { broker, test in
            let session = test.session()
            await #expect(throws: EngineError.self) { try await session.connect() }
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.connects.count == 1)
            await session.close()
        }
    }

    @Test func tokenFromACommandAtConnect() async throws {
        let token = TestTokens.token(for: "carol")
        try await withBroker { broker, test in
            let session = test.session("carol") {
                $0.token = nil
                $0.tokenSource = .command("printf '  %s\\n' '\(token)'")
            }
            let user = try await session.connect()
            #expect(user == "carol")
            #expect(broker.connects.first?.password == Array(token.utf8))
            await session.close()
        }
    }

    @Test func failingTokenCommandEndsTheCall() async throws {
        try await withBroker { broker, test in
            let session = test.session {
                $0.token = nil
                $0.tokenSource = .command("echo no token here >&2; exit 3")
            }
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion()
            #expect(completion?.error?.status == .tokenIncorrect)
            let message = completion?.error.map { "\($0)" } ?? ""
            #expect(message.contains("exited with status 3: no token here"), "\(message)")
            #expect(recorder.events.count == 1)
            #expect(broker.connectionCount == 0)
            await session.close()
        }
    }

    @Test(arguments: [true, false]) func tokenFromAURL(json: Bool) async throws {
        let token = TestTokens.token(for: "dave")
        let requests = Mutex<[String]>([])
        let server = try RawTCPServer { fd in
            let head = RawTCPServer.receive(fd, until: Array("\r\n\r\n".utf8))
            requests.withLock { $0.append(String(decoding: head, as: UTF8.self)) }
            let body = json ? "{\"code\":200,\"userId\":\"dave\",\"token\":\"\(token)\"}" : token + "\n"
            let type = json ? "application/json" : "text/plain"
            RawTCPServer.send(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8))
        }
        defer { server.stop() }
        try await withBroker { broker, test in
            let session = test.session("dave") {
                $0.token = nil
                $0.tokenSource = .url(try! HTTPURL(parsing: "http://127.0.0.1:\(server.port)/token?user=dave"))
            }
            let user = try await session.connect()
            #expect(user == "dave")
            #expect(broker.connects.first?.password == Array(token.utf8))
            #expect(requests.withLock { $0.first?.hasPrefix("GET /token?user=dave HTTP/1.1\r\n") } == true)
            await session.close()
        }
    }
}
