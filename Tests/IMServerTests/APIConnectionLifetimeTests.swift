import IMHTTP
import IMJSON
import IMProtocol
@testable import IMServer
import IMTransport
import Testing

/// When the API closes connections: slow senders, idle keep-alive, too many, server shutdown.
struct APIConnectionLifetimeTests {
    /// A kick with a fresh nonce each time.
    private static var kick: HTTPRequest { APIRequests.post("/user/kick.json", [("userId", "a")]) }

    @Test func slowSendersAreCutOffAfterTheRequestTimeoutWhileOthersAreServed() async throws {
        var options = APIServerOptions()
        // Long enough that the client served meanwhile is not cut off on a busy machine.
        options.requestTimeout = .seconds(2)
        try await APITestServer.run(options: options) { server in
            let request = Self.kick.serialized()
            let started = ContinuousClock.now
            let stalled = try await server.client(), trickling = try await server.client()
            defer {
                stalled.close()
                trickling.close()
            }
            // One sends part of its head and stops; the other keeps sending a byte at a time.
            try await stalled.send(Array(request.prefix(20)))
            let trickle = Task {
                for byte in request.prefix(200) {
                    try await trickling.send([byte])
                    try await Task.sleep(for: .milliseconds(30))
                }
            }
            defer { trickle.cancel() }

            // Meanwhile another client is served at once.
            #expect(try await server.exchange(Self.kick).status == .ok)

            for client in [stalled, trickling] {
                var reader = client.reader()
                let responses = try await reader.untilClosed()
                #expect(responses.map(\.status) == [.requestTimeout])
                #expect(try responses.first?.json == [
                    "code": 408, "errorMessage": "the request did not arrive whole within 2.0 seconds",
                ])
            }
            #expect(ContinuousClock.now - started >= .seconds(2))
            #expect(await server.backend.calls.count == 1)
        }
    }

    @Test func aSilentNewConnectionIsCutOffAfterTheRequestTimeout() async throws {
        var options = APIServerOptions()
        options.requestTimeout = .milliseconds(300)
        try await APITestServer.run(options: options) { server in
            let silent = try await server.client()
            defer { silent.close() }
            var reader = silent.reader()
            #expect(try await reader.untilClosed().map(\.status) == [.requestTimeout])
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedQuietly() async throws {
        var options = APIServerOptions()
        options.idleTimeout = .milliseconds(300)
        options.requestTimeout = .seconds(30)
        try await APITestServer.run(options: options) { server in
            let client = try await server.client()
            defer { client.close() }
            var reader = client.reader()
            // The idle timer starts once the answer is sent, so after this reading.
            let started = ContinuousClock.now
            try await client.send(Self.kick)
            #expect(try await reader.next().status == .ok)
            #expect(try await reader.untilClosed().isEmpty)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            // The server waits for our FIN before it lets go of the connection.
            client.close()
            while server.server.connectionCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
    }

    @Test func aClientThatReadsNoAnswerIsCutOffAfterTheIdleTimeout() async throws {
        var options = APIServerOptions()
        options.idleTimeout = .milliseconds(500)
        try await APITestServer.run(options: options) { server in
            let client = try await server.client()
            defer { client.close() }
            let connection = client.connection
            await withCheckedContinuation { (paused: CheckedContinuation<Void, Never>) in
                server.clientLoop.execute {
                    connection.pauseReading()
                    paused.resume()
                }
            }
            // Requests answered at once (404), pipelined: far more answers than the sockets'
            // buffers hold, none of them read.
            let burst = Array(Array(repeating: Array("GET /nothing HTTP/1.1\r\nHost: a\r\n\r\n".utf8), count: 2_000).joined())
            for _ in 0..<20 { try await client.send(burst) }
            // Serving the 40,000 requests comes first (seconds on a busy CI machine), then the
            // idle timeout, then a graceful close that may wait `closeTimeout` (5 s) for the
            // unread answers before it turns abortive: 10 s was once not enough in CI.
            let deadline = ContinuousClock.now + .seconds(30)
            while server.server.connectionCount > 0 && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.server.connectionCount == 0, "the connection is still held")
        }
    }

    @Test func connectionsBeyondTheCapAreRefusedWith503() async throws {
        var options = APIServerOptions()
        options.maxConnections = 1
        try await APITestServer.run(options: options) { server in
            let first = try await server.client()
            defer { first.close() }
            var firstReader = first.reader()
            try await first.send(Self.kick)
            #expect(try await firstReader.next().status == .ok)

            let second = try await server.client()
            defer { second.close() }
            var secondReader = second.reader()
            let refused = try await secondReader.untilClosed()
            #expect(refused.map(\.status) == [.serviceUnavailable])

            try await first.send(Self.kick)
            #expect(try await firstReader.next().status == .ok)
        }
    }

    @Test func closeAnswersTheRequestUnderWayClosesIdleConnectionsAndStopsAccepting() async throws {
        var options = APIServerOptions()
        // On a loaded machine the close may come after the 3 s head timeout: no 408 race here.
        options.headTimeout = .seconds(60)
        try await APITestServer.run(options: options) { server in
            await server.backend.hold()
            let idle = try await server.client(), busy = try await server.client()
            defer {
                idle.close()
                busy.close()
            }
            var busyReader = busy.reader(), idleReader = idle.reader()
            try await busy.send(Self.kick)
            while await server.backend.calls.isEmpty { try await Task.sleep(for: .milliseconds(5)) }

            let closing = Task { await server.server.close() }
            // The idle connection goes at once; the busy one waits for its answer.
            #expect(try await idleReader.untilClosed().isEmpty)
            await server.backend.release()
            let answered = try await busyReader.untilClosed()
            #expect(answered.map(\.status) == [.ok])
            #expect(answered.first?.headers["Connection"] == "close")
            await closing.value
            #expect(server.server.connectionCount == 0)
            await #expect(throws: TransportError.self) { _ = try await server.client() }
        }
    }
}
