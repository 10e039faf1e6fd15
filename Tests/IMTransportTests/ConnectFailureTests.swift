import IMTransport
import Testing

/// Connect failures come back as the right `TransportError`, in bounded time.
struct ConnectFailureTests {
    @Test func connectTimesOutWhenTheAcceptQueueIsFull() async throws {
        // A listener that never accepts: once its queue is full, the kernel drops further SYNs.
        let listener = try RawSocket.listen(backlog: 1)
        defer { listener.close() }
        let port = listener.port
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        try await withTimeout(.seconds(30)) {
            var fillers: [Connection] = []
            defer { for filler in fillers { filler.close(.abortive) } }
            var queueFull = false
            for _ in 0..<32 where !queueFull {
                do throws(TransportError) {
                    fillers.append(try await Connection.connect(
                        to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .milliseconds(300)), on: loop))
                } catch .connectTimedOut {
                    queueFull = true
                }
            }
            try #require(queueFull, "the accept queue never filled after \(fillers.count) connections")

            let timeout = Duration.milliseconds(500)
            let clock = ContinuousClock()
            let started = clock.now
            let error = await failure { () async throws(TransportError) in
                try await Connection.connect(
                    to: "127.0.0.1", port: port, options: ConnectOptions(timeout: timeout), on: loop)
            }
            let elapsed = clock.now - started
            #expect(error == .connectTimedOut(host: "127.0.0.1", port: port, after: timeout))
            #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "took \(elapsed)")
            #expect(error?.description.contains("within 500 ms") == true)
        }
    }

    @Test func refusedConnectionSaysNothingListens() async throws {
        let port = try RawSocket.unusedPort()
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await Connection.connect(
                    to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5)), on: loop)
            }
            #expect(error == .connectionRefused(host: "127.0.0.1", port: port))
            #expect(error?.description == "127.0.0.1:\(port) refused the connection: "
                + "nothing listens on that port (is the server running, and is the port right?)")
        }
    }

    @Test func cancellingTheTaskAbandonsTheConnect() async throws {
        let listener = try RawSocket.listen(backlog: 1)
        defer { listener.close() }
        let port = listener.port
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        let attempt = Task {
            // Against a full queue the connect would wait for its whole timeout.
            var fillers: [Connection] = []
            defer { for filler in fillers { filler.close(.abortive) } }
            while true {
                do throws(TransportError) {
                    fillers.append(try await Connection.connect(
                        to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(30)), on: loop))
                } catch {
                    return error
                }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        attempt.cancel()
        let error = try await withTimeout(.seconds(5)) { await attempt.value }
        #expect(error == .cancelled)
    }
}
