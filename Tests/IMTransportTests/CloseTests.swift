import IMTransport
import Testing

/// Graceful close delivers everything queued; abortive close resets.
struct CloseTests {
    /// A server whose graceful close would wait a minute for a FIN it missed: longer than the test may run.
    private func serve(_ onAccept: @escaping @Sendable (Connection) -> Void) throws -> (EventLoopGroup, UInt16) {
        let group = try EventLoopGroup(name: "server")
        let listener = try Listener(group: group, options: ConnectionOptions(closeTimeout: .seconds(60)), onAccept: onAccept)
        return (group, listener.localAddress.port)
    }

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
        let (server, port) = try serve { connection in
            connection.start(EchoHandler())
            for frame in frames { _ = try? connection.send(frame) }
            connection.close(.graceful)
        }
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            server.shutdown()
        }
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(
                to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5)), on: loop)
            var received: [[UInt8]] = []
            let error = await failure { () async throws(TransportError) in
                for try await frame in connection.frames() { received.append(frame) }
            }
            #expect(error == .closedByPeer)
            #expect(received == frames)
        }
    }

    @Test func abortiveCloseDropsQueuedFramesAndResets() async throws {
        let (server, port) = try serve { $0.start(EchoThenAbort()) }
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            server.shutdown()
        }
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(
                to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5)), on: loop)
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
        let server = try EchoServer()
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            server.shutdown()
        }
        let port = server.port
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(
                to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5)), on: loop)
            let frames = connection.frames()
            connection.close()
            var count = 0
            for try await _ in frames { count += 1 }
            #expect(count == 0)
            await #expect(throws: TransportError.closed) { try await connection.write(TestFrames.pingRequest) }
        }
    }

    @Test func shuttingTheLoopDownEndsItsConnections() async throws {
        let server = try EchoServer()
        defer { server.shutdown() }
        let loop = try EventLoop(name: "client")
        let port = server.port
        try await withTimeout(.seconds(20)) {
            let connection = try await Connection.connect(
                to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5)), on: loop)
            let frames = connection.frames()
            loop.shutdown()
            await #expect(throws: TransportError.eventLoopStopped) { for try await _ in frames {} }
            await #expect(throws: TransportError.eventLoopStopped) { try await connection.write(TestFrames.pingRequest) }
        }
    }
}
