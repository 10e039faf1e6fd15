@testable import IMTransport
import MQTT
import Testing
import TestSupport

/// The frame decoder alone, then a malformed frame on a real connection.
struct FramingTests {
    private static let stream: [[UInt8]] = [
        TestFrames.pingRequest,
        TestFrames.publish(payloadSize: 200),
        TestFrames.publish(payloadSize: 20_000),  // three-byte remaining length
        [0xE0, 0x00],
    ]

    private func decode(_ chunks: [[UInt8]], pausingEvery pause: Int = .max) throws -> [[UInt8]] {
        var decoder = FrameDecoder(maximumFrameSize: 1 << 20)
        var frames: [[UInt8]] = []
        var sinceResume = 0
        let collect: ([UInt8]) -> Bool = { frame in
            frames.append(frame)
            sinceResume += 1
            return sinceResume < pause
        }
        for chunk in chunks {
            try chunk.withUnsafeBytes { try decoder.feed($0, emit: collect) }
            sinceResume = 0
        }
        while decoder.hasPendingBytes {
            let before = frames.count
            try decoder.feed(UnsafeRawBufferPointer(start: nil, count: 0), emit: collect)
            sinceResume = 0
            if frames.count == before { break }
        }
        return frames
    }

    @Test func cutsFramesAtEverySplitPoint() throws {
        let bytes = Array(Self.stream.joined())
        for split in stride(from: 0, through: bytes.count, by: 97) + [1, 2, 3, 4, bytes.count - 1] {
            let frames = try decode([Array(bytes[..<split]), Array(bytes[split...])])
            #expect(frames == Self.stream, "split at \(split)")
        }
    }

    @Test func cutsFramesFedOneByteAtATime() throws {
        #expect(try decode(Self.stream.joined().map { [$0] }) == Self.stream)
    }

    @Test func keepsBytesWhenTheConsumerPausesAndHandsThemOverLater() throws {
        #expect(try decode([Array(Self.stream.joined())], pausingEvery: 1) == Self.stream)
    }

    @Test func rejectsALengthLongerThanFourBytesAndAnOversizedFrame() {
        #expect(throws: FrameError.variableIntegerTooLong) { try decode([[0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]]) }
        #expect(throws: FrameError.packetTooLarge(size: 2_000_004, maximum: 1 << 20)) {
            try decode([[0x30] + TestFrames.remainingLength(2_000_000)])
        }
    }

    @Test func malformedFrameClosesTheConnectionWithAFramingError() async throws {
        let group = try EventLoopGroup(name: "server")
        defer { group.shutdown() }
        let (accepted, continuation) = AsyncStream.makeStream(of: Connection.self)
        let listener = try Listener(group: group) { continuation.yield($0) }
        let port = listener.localAddress.port
        try await withTimeout(.seconds(20)) {
            async let peerSawClose: Bool = onThread {
                let socket = try RawSocket.connect(port: port)
                defer { socket.close() }
                try socket.send(TestFrames.pingRequest + [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
                // The server resets the connection: end of stream or ECONNRESET, never data.
                return ((try? socket.receive()) ?? []).isEmpty
            }
            var connections = accepted.makeAsyncIterator()
            let connection = try #require(await connections.next())
            var frames = connection.frames().makeAsyncIterator()
            #expect(try await frames.next() == TestFrames.pingRequest)
            await #expect(throws: TransportError.framing(.variableIntegerTooLong)) { try await frames.next() }
            #expect(try await peerSawClose)
        }
    }
}
