import IMTransport
import Testing
import TestSupport

/// Connect failures come back as the right `TransportError`, in bounded time.
struct ConnectFailureTests {
    /// Runs `body` against a loopback listener that never accepts and whose accept queue is
    /// full, so that the kernel drops further SYNs and a connect can only time out.
    private func withFullAcceptQueue(
        _ body: @escaping @Sendable (_ port: UInt16, _ loop: EventLoop) async throws -> Void
    ) async throws {
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
                    fillers.append(try await connect(port: port, on: loop, timeout: .milliseconds(300)))
                } catch .connectTimedOut {
                    queueFull = true
                }
            }
            try #require(queueFull, "the accept queue never filled after \(fillers.count) connections")
            try await body(port, loop)
        }
    }

    @Test func connectTimesOutWhenTheAcceptQueueIsFull() async throws {
        try await withFullAcceptQueue { port, loop in
            let timeout = Duration.milliseconds(500)
            let clock = ContinuousClock()
            let started = clock.now
            let error = await failure { () async throws(TransportError) in
                try await connect(port: port, on: loop, timeout: timeout)
            }
            let elapsed = clock.now - started
            #expect(error == .connectTimedOut(host: "127.0.0.1", port: port, after: timeout))
            #expect(elapsed >= .milliseconds(450) && elapsed < .seconds(3), "took \(elapsed)")
            #expect(error?.description.contains("within 500 ms") == true)
        }
    }

    @Test func cancellingTheTaskAbandonsTheConnect() async throws {
        try await withFullAcceptQueue { port, loop in
            let attempt = Task { () async -> TransportError? in
                await failure { () async throws(TransportError) in
                    try await connect(port: port, on: loop, timeout: .seconds(60))
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            attempt.cancel()
            #expect(await attempt.value == .cancelled)
        }
    }

    @Test func refusedConnectionSaysNothingListens() async throws {
        let refusing = try LoopbackPortHold()
        defer { refusing.release() }
        let port = refusing.port
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await connect(port: port, on: loop)
            }
            #expect(error == .connectionRefused(host: "127.0.0.1", port: port))
            #expect(error?.description == "127.0.0.1:\(port) refused the connection "
                + "(nothing listens on that port: is the server running, and is the port right?)")
        }
    }
}
