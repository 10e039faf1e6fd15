import Glibc
import IMTransport
import Synchronization
import Testing
import TestSupport

/// A tap takes the frames it wants on the loop, from those already queued on; the consumer of
/// `frames()` gets the rest, in their order.
@Suite(.timeLimit(.minutes(1)))
struct FrameTapTests {
    /// Takes PUBLISHes, noting whether every call came on the connection's loop.
    final class PublishTap: FrameTap {
        private let taken = Mutex<(frames: [[UInt8]], offLoop: Int)>(([], 0))

        var frames: [[UInt8]] { taken.withLock { $0.frames } }
        var callsOffLoop: Int { taken.withLock { $0.offLoop } }

        func take(_ frame: [UInt8], from connection: Connection) -> Bool {
            let onLoop = connection.loop.inEventLoop
            guard frame.first.map({ $0 >> 4 == 3 }) == true else {
                if !onLoop { taken.withLock { $0.offLoop += 1 } }
                return false
            }
            taken.withLock {
                $0.frames.append(frame)
                if !onLoop { $0.offLoop += 1 }
            }
            return true
        }
    }

    @Test func theTapTakesQueuedAndLaterFramesAndTheConsumerGetsTheRestInOrder() async throws {
        let group = try EventLoopGroup(name: "tap")
        defer { group.shutdown() }
        let (accepted, continuation) = AsyncStream.makeStream(of: Connection.self)
        let listener = try Listener(group: group) { continuation.yield($0) }
        let port = listener.localAddress.port
        let first = [TestFrames.pingRequest, TestFrames.publish(payloadSize: 5, seed: 1), TestFrames.pingRequest,
                     TestFrames.publish(payloadSize: 200, seed: 2)]
        let later = [TestFrames.publish(payloadSize: 7, seed: 3), TestFrames.pingRequest]
        let socket = try RawSocket.connect(port: port)
        defer { socket.close() }
        try await withTimeout(.seconds(20)) {
            var connections = accepted.makeAsyncIterator()
            let connection = try #require(await connections.next())
            let frames = connection.frames()
            try socket.send(Array(first.joined()))
            // Let them land in the queue before the tap is put in front of it.
            try await Task.sleep(for: .milliseconds(300))
            let tap = PublishTap()
            await frames.tap(tap)
            #expect(tap.frames == [first[1], first[3]], "the queued PUBLISHes went to the tap")
            try socket.send(Array(later.joined()))
            var incoming = frames.makeAsyncIterator()
            for _ in 0..<3 { #expect(try await incoming.next() == TestFrames.pingRequest) }
            #expect(await eventually { tap.frames == [first[1], first[3], later[0]] })
            #expect(tap.callsOffLoop == 0)
            connection.close()
        }
    }

    @Test func readingPausedOnAFullQueueResumesWhenTheTapEmptiesIt() async throws {
        let group = try EventLoopGroup(name: "tap")
        defer { group.shutdown() }
        let (accepted, continuation) = AsyncStream.makeStream(of: Connection.self)
        let listener = try Listener(group: group) { continuation.yield($0) }
        let socket = try RawSocket.connect(port: listener.localAddress.port)
        defer { socket.close() }
        let first = (0..<6).map { TestFrames.publish(payloadSize: 4, seed: $0) }
        let later = (6..<9).map { TestFrames.publish(payloadSize: 4, seed: $0) }
        try await withTimeout(.seconds(20)) {
            var connections = accepted.makeAsyncIterator()
            let connection = try #require(await connections.next())
            // Two frames fill the queue and pause reading; nobody consumes.
            let frames = connection.frames(bufferLimit: 2)
            try socket.send(Array(first.joined()))
            try await Task.sleep(for: .milliseconds(300))
            let tap = PublishTap()
            await frames.tap(tap)
            try socket.send(Array(later.joined()))
            #expect(await eventually { tap.frames == first + later }, "reading went on once the tap had emptied the queue")
            connection.close()
        }
    }
}
