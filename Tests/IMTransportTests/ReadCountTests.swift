import Glibc
import Synchronization
import Testing
import TestSupport
@testable import IMTransport

/// How often a plain connection reads its socket: once for a packet that arrives alone (the
/// read that would only say "would block" is skipped), and still to the end of the stream
/// when the peer's FIN comes with its last data.
@Suite(.timeLimit(.minutes(1)))
struct ReadCountTests {
    /// A plain socket stream that counts its reads.
    private final class CountingStream: ByteStream, @unchecked Sendable {
        let socket: SocketStream
        let reads = Atomic<Int>(0)

        init(_ socket: SocketStream) { self.socket = socket }

        var fileDescriptor: Int32 { socket.fileDescriptor }
        var shortReadDrainsSocket: Bool { socket.shortReadDrainsSocket }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
            reads.add(1, ordering: .relaxed)
            return try socket.read(into: buffer)
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult { try socket.write(bytes) }
        func shutdownOutput() { socket.shutdownOutput() }
        func close(abortively: Bool) { socket.close(abortively: abortively) }
    }

    /// A connection on `loop` over the accepted end of a loopback pair, and the peer's end.
    private func pair(on loop: EventLoop) async throws -> (Connection, CountingStream, RawSocket) {
        let listener = try RawSocket.listen()
        defer { listener.close() }
        let peer = try RawSocket.connect(port: listener.port)
        let accepted = try listener.accept()
        _ = fcntl(accepted.fd, F_SETFL, fcntl(accepted.fd, F_GETFL) | O_NONBLOCK)
        let stream = CountingStream(SocketStream(fileDescriptor: accepted.fd))
        let address = try #require(SocketAddress(ipAddress: "127.0.0.1", port: listener.port))
        let connection = try await onLoop(loop) {
            try Connection(stream: stream, remoteAddress: address,
                           setup: ConnectionSetup(options: ConnectionOptions()), loop: loop, registered: false)
        }
        return (connection, stream, peer)
    }

    @Test func aPacketThatArrivesAloneIsReadOnce() async throws {
        let loop = try EventLoop(name: "reads")
        defer { loop.shutdown() }
        let (connection, stream, peer) = try await pair(on: loop)
        defer { peer.close() }
        var frames = connection.frames().makeAsyncIterator()
        let count = 20
        for index in 0..<count {
            let frame = TestFrames.publish(payloadSize: 100, seed: index)
            try peer.send(frame)
            #expect(try await frames.next() == frame)
        }
        let reads = stream.reads.load(ordering: .relaxed)
        // One more for the read when the connection starts; reading on to "would block"
        // after each packet made it two reads a packet.
        #expect(reads <= count + 1, "\(reads) reads for \(count) packets that came one at a time")
        connection.close(.abortive)
    }

    @Test func aFINBehindTheLastDataStillEndsTheStream() async throws {
        let loop = try EventLoop(name: "reads")
        defer { loop.shutdown() }
        let (connection, _, peer) = try await pair(on: loop)
        let frames = connection.frames()
        let last = TestFrames.publish(payloadSize: 100, seed: 7)
        try peer.send(last)
        _ = shutdown(peer.fd, Int32(SHUT_WR))
        var received: [[UInt8]] = []
        let error = await failure { () async throws(TransportError) in
            for try await frame in frames { received.append(frame) }
        }
        #expect(received == [last])
        #expect(error == .closedByPeer)
        peer.close()
    }
}
