import Glibc
@testable import IMTransport
import Testing
import TestSupport

/// Runs blocking `body` on a thread of its own, away from the cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = LoopThread.spawn(name: "test-peer") {
            continuation.resume(with: Result { try body() })
        }
        pthread_detach(thread)
    }
}

/// Runs `body` on `loop` and returns what it returns.
func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let accepted = loop.execute { continuation.resume(with: Result { try body() }) }
        if !accepted { continuation.resume(throwing: TestFailure("loop stopped")) }
    }
}

/// MQTT-shaped frames for the tests.
enum TestFrames {
    static let pingRequest: [UInt8] = [0xC0, 0x00]

    /// A QoS 0 PUBLISH to `topic` with `payloadSize` bytes counting up from `seed`.
    static func publish(topic: String = "im/test", payloadSize: Int, seed: Int = 0) -> [UInt8] {
        let topicBytes = Array(topic.utf8)
        let payload = (0..<payloadSize).map { UInt8(truncatingIfNeeded: $0 &+ seed) }
        let body = [UInt8(topicBytes.count >> 8), UInt8(topicBytes.count & 0xFF)] + topicBytes + payload
        return [0x30] + remainingLength(body.count) + body
    }

    static func remainingLength(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
}

/// Sends every frame straight back.
final class EchoHandler: ConnectionHandler {
    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        _ = try? connection.send(frame)
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {}
}

/// An echo server on 127.0.0.1 with its own loops; shut it down at the end.
struct EchoServer {
    let group: EventLoopGroup
    let listener: Listener
    var port: UInt16 { listener.localAddress.port }

    init(host: String = "127.0.0.1", threads: Int = 1, backlog: Int32 = 1024) throws {
        group = try EventLoopGroup(threads: threads, name: "echo")
        listener = try Listener(host: host, backlog: backlog, group: group) { $0.start(EchoHandler()) }
    }

    func shutdown() {
        group.shutdown()
    }
}

/// Sends `frames` over `connection` and checks that they come back whole and in order.
func expectEcho(of frames: [[UInt8]], over connection: Connection) async throws {
    var incoming = connection.frames().makeAsyncIterator()
    for frame in frames { try await connection.write(frame) }
    for frame in frames {
        let echoed = try await incoming.next()
        #expect(echoed == frame)
    }
}

/// The error `body` throws; records an issue and returns nil when it succeeds instead.
func failure<T>(
    of body: () async throws(TransportError) -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> TransportError? {
    do {
        _ = try await body()
        Issue.record("expected a TransportError, got success", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Runs `body` with a server's port and a client loop, within `limit`; shuts both down after.
func withServer(
    host: String = "127.0.0.1", options: ConnectionOptions = .init(), limit: Duration = .seconds(20),
    onAccept: @escaping @Sendable (Connection) -> Void,
    _ body: @escaping @Sendable (_ port: UInt16, _ loop: EventLoop) async throws -> Void
) async throws {
    let group = try EventLoopGroup(name: "server")
    let loop = try EventLoop(name: "client")
    defer {
        loop.shutdown()
        group.shutdown()
    }
    let port = try Listener(host: host, group: group, options: options, onAccept: onAccept).localAddress.port
    try await withTimeout(limit) { try await body(port, loop) }
}

/// Runs `body` with an echo server's port and a client loop (see `withServer`).
func withEchoServer(
    host: String = "127.0.0.1", _ body: @escaping @Sendable (_ port: UInt16, _ loop: EventLoop) async throws -> Void
) async throws {
    try await withServer(host: host, onAccept: { $0.start(EchoHandler()) }, body)
}

/// Connects to `host:port` on `loop` with a 5 s timeout.
func connect(
    to host: String = "127.0.0.1", port: UInt16, on loop: EventLoop, proxy: SOCKS5Proxy? = nil,
    timeout: Duration = .seconds(5), limits: ConnectionOptions = .init()
) async throws(TransportError) -> Connection {
    try await Connection.connect(
        to: host, port: port, options: ConnectOptions(timeout: timeout, proxy: proxy, connection: limits), on: loop)
}
