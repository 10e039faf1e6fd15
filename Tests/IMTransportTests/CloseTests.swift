import IMTransport
import Testing

/// Graceful close delivers everything queued; abortive close resets.
struct CloseTests {
    /// A graceful close that missed the peer's FIN would wait a minute: longer than a test may run.
    private let patientClose = ConnectionOptions(closeTimeout: .seconds(60))

    /// Queues an echo of the first frame, then resets the connection before it can be written.
    private final class EchoThenAbort: ConnectionHandler {
        func connection(_ connection: Connection, didReceive frame: [UInt8]) {
            _ = try? connection.send(frame)
            connection.close(.abortive)
        }

        func connection(_ connection: Connection, didCloseWith error: TransportError?) {}
    }

    @Test func gracefulCloseFlushesQueuedFramesFirst() async throws {
        let frames = (0..<200).map { TestFrames.publish(payloadSize: 10_000, seed: $0) }
        let serve: @Sendable (Connection) -> Void = { connection in
            connection.start(EchoHandler())
            for frame in frames { _ = try? connection.send(frame) }
            connection.close(.graceful)
        }
        try await withServer(options: patientClose, onAccept: serve) { port, loop in
            let connection = try await connect(port: port, on: loop)
            var received: [[UInt8]] = []
            let error = await failure { () async throws(TransportError) in
                for try await frame in connection.frames() { received.append(frame) }
            }
            #expect(error == .closedByPeer)
            #expect(received == frames)
        }
    }

    @Test func abortiveCloseDropsQueuedFramesAndResets() async throws {
        try await withServer(options: patientClose, onAccept: { $0.start(EchoThenAbort()) }) { port, loop in
            let connection = try await connect(port: port, on: loop)
            var received = 0
            let frames = connection.frames()
            try await connection.write(TestFrames.pingRequest)
            let error = await failure { () async throws(TransportError) in
                for try await _ in frames { received += 1 }
            }
            #expect(error == .connectionReset)
            #expect(received == 0)
        }
    }

    @Test func localCloseEndsTheFrameSequenceAndRefusesFurtherWrites() async throws {
        try await withEchoServer { port, loop in
            let connection = try await connect(port: port, on: loop)
            let frames = connection.frames()
            connection.close()
            var count = 0
            for try await _ in frames { count += 1 }
            #expect(count == 0)
            await #expect(throws: TransportError.closed) { try await connection.write(TestFrames.pingRequest) }
        }
    }

    @Test func shuttingTheLoopDownEndsItsConnections() async throws {
        try await withEchoServer { port, loop in
            let connection = try await connect(port: port, on: loop)
            let frames = connection.frames()
            loop.shutdown()
            await #expect(throws: TransportError.eventLoopStopped) { for try await _ in frames {} }
            await #expect(throws: TransportError.eventLoopStopped) { try await connection.write(TestFrames.pingRequest) }
        }
    }
}
