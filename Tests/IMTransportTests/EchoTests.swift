import Glibc
import IMTransport
import Testing
import TestSupport

/// Frames cross real loopback connections whole and in order.
struct EchoTests {
    @Test func echoesFramesAcrossAThousandConcurrentConnections() async throws {
        let limit = try ProcessLimits.raiseOpenFileLimit()
        try #require(limit >= 2_200, "needs 2,000 descriptors for both ends, have \(limit)")
        let server = try EchoServer(threads: 2, backlog: 2048)
        let clients = try EventLoopGroup(threads: 2, name: "client")
        defer {
            clients.shutdown()
            server.shutdown()
        }
        let port = server.port
        try await withTimeout(.seconds(60)) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<1_000 {
                    let loop = clients.next()
                    group.addTask {
                        let connection = try await connect(port: port, on: loop, timeout: .seconds(20))
                        defer { connection.close() }
                        let frames = [
                            TestFrames.pingRequest,
                            TestFrames.publish(payloadSize: 20, seed: index),
                            TestFrames.publish(payloadSize: 300, seed: index),  // two-byte remaining length
                        ]
                        try await expectEcho(of: frames, over: connection)
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    @Test func framesArriveWholeWhenThePeerSendsOneByteAtATime() async throws {
        let group = try EventLoopGroup(name: "server")
        defer { group.shutdown() }
        let (accepted, continuation) = AsyncStream.makeStream(of: Connection.self)
        let listener = try Listener(group: group) { continuation.yield($0) }
        let port = listener.localAddress.port
        let frames = [
            TestFrames.pingRequest,
            TestFrames.publish(payloadSize: 150),  // 2-byte length
            TestFrames.pingRequest,
            TestFrames.publish(payloadSize: 3),
        ]
        try await withTimeout(.seconds(20)) {
            async let peer: Void = onThread {
                let socket = try RawSocket.connect(port: port)
                defer { socket.close() }
                for byte in frames.joined() {
                    try socket.send([byte])
                    usleep(200)
                }
                _ = try socket.receive()  // hold the connection until the server closes it
            }
            var iterator = accepted.makeAsyncIterator()
            let connection = try #require(await iterator.next())
            var incoming = connection.frames().makeAsyncIterator()
            for frame in frames {
                #expect(try await incoming.next() == frame)
            }
            connection.close()
            try await peer
        }
    }

    @Test func connectsToLocalhostByName() async throws {
        try await withEchoServer { port, loop in
            // "localhost" may resolve to ::1 first, where nothing listens: the next address must be tried.
            let connection = try await connect(to: "localhost", port: port, on: loop)
            defer { connection.close() }
            #expect(connection.remoteAddress.port == port)
            // Our end is asked of the socket: the same family, a port of its own.
            let local = try await onLoop(loop) { connection.localAddress }
            #expect(local?.family == connection.remoteAddress.family && local?.port != port, "\(String(describing: local))")
            try await expectEcho(of: [TestFrames.pingRequest, TestFrames.publish(payloadSize: 10)], over: connection)
            connection.close()
            // The body cannot throw: nil here is the closed connection's answer.
            #expect(await eventually { (try? await onLoop(loop) { connection.localAddress }) == nil })
        }
    }

    @Test(.enabled(if: RawSocket.ipv6LoopbackAvailable, "IPv6 loopback is not available"))
    func connectsOverIPv6Loopback() async throws {
        try await withEchoServer(host: "::1") { port, loop in
            let connection = try await connect(to: "[::1]", port: port, on: loop)
            defer { connection.close() }
            #expect(connection.remoteAddress.family == .ipv6)
            #expect(connection.remoteAddress.description == "[::1]:\(port)")
            try await expectEcho(of: [TestFrames.publish(payloadSize: 40)], over: connection)
        }
    }
}
