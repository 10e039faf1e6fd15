import Glibc
@testable import IMTransport
import Synchronization
import Testing
import TestSupport

/// Raw framing hands bytes over as they are read, whatever they are, and still pauses.
struct RawFramingTests {
    private static let raw = ConnectionOptions(framing: .raw)

    /// Bytes that are no MQTT at all: a malformed remaining length, then HTTP text.
    private static let notMQTT: [UInt8] = [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F] + Array("POST / HTTP/1.1\r\n\r\n".utf8)

    @Test func decoderHandsEachChunkOverWholeAndKeepsNothing() throws {
        var decoder = FrameDecoder(maximumFrameSize: 4, framing: .raw)
        var frames: [[UInt8]] = []
        let chunks: [[UInt8]] = [Self.notMQTT, [], [0x00], Array(repeating: 0xAB, count: 1000)]
        for chunk in chunks {
            // Refusing more (a pause) must not keep bytes back: the chunk was handed over whole.
            try chunk.withUnsafeBytes { bytes in
                try decoder.feed(bytes) { frame in
                    frames.append(frame)
                    return false
                }
            }
            #expect(!decoder.hasPendingBytes)
        }
        #expect(frames == chunks.filter { !$0.isEmpty })
    }

    @Test func echoesArbitraryBytesBetweenRawConnections() async throws {
        let payload = Self.notMQTT + (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }
        try await withServer(options: Self.raw, onAccept: { $0.start(EchoHandler()) }) { port, loop in
            let connection = try await connect(port: port, on: loop, limits: Self.raw)
            defer { connection.close() }
            let frames = connection.frames()
            for start in stride(from: 0, to: payload.count, by: 70_001) {
                try await connection.write(Array(payload[start..<min(start + 70_001, payload.count)]))
            }
            var received: [UInt8] = []
            for try await frame in frames {
                #expect(!frame.isEmpty)
                received += frame
                if received.count >= payload.count { break }
            }
            #expect(received == payload)
        }
    }

    @Test func aChunkIsDeliveredAsItArrivesAndSplitBytesReassemble() async throws {
        let group = try EventLoopGroup(name: "server")
        defer { group.shutdown() }
        let listener = try Listener(group: group, options: Self.raw) { $0.start(EchoHandler()) }
        let port = listener.localAddress.port
        let head = Array("GET".utf8), tail = Array(" /slow HTTP/1.1\r\n\r\n".utf8)
        try await withTimeout(.seconds(20)) {
            let echoed = try await onThread { () -> [UInt8] in
                let socket = try RawSocket.connect(port: port)
                defer { socket.close() }
                // Three bytes that are no whole message of any kind come back before anything follows.
                try socket.send(head)
                var echoed = try socket.receive(exactly: head.count)
                for byte in tail {
                    try socket.send([byte])
                    usleep(100)
                }
                echoed += try socket.receive(exactly: tail.count)
                return echoed
            }
            #expect(echoed == head + tail)
        }
    }

    @Test func pausedReadingHoldsBytesInTheSocketUntilResumed() async throws {
        let recorder = Recorder()
        let group = try EventLoopGroup(name: "server")
        defer { group.shutdown() }
        let listener = try Listener(group: group, options: Self.raw) { $0.start(PauseAfterFirstChunk(recorder)) }
        let port = listener.localAddress.port
        try await withTimeout(.seconds(30)) {
            let socket = try await onThread { try RawSocket.connect(port: port) }
            defer { socket.close() }
            try socket.send([0x01])
            try await recorder.waitFor(byteCount: 1)

            // With the server paused, the kernel's buffers fill and further sends would block.
            let pushed = try await onThread { try socket.sendUntilFull(seed: 1) }
            #expect(pushed.count > 0)
            try await Task.sleep(for: .milliseconds(200))
            #expect(recorder.bytes.count == 1, "delivered while paused")

            let connection = try #require(recorder.connection)
            try await onLoop(connection.loop) { connection.resumeReading() }
            try await recorder.waitFor(byteCount: 1 + pushed.count)
            #expect(recorder.bytes == [0x01] + pushed)
        }
    }
}

/// What a server connection received, readable from the test.
private final class Recorder: Sendable {
    private let state = Mutex<(bytes: [UInt8], connection: Connection?)>(([], nil))

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var connection: Connection? { state.withLock { $0.connection } }

    func record(_ chunk: [UInt8], from connection: Connection) {
        state.withLock {
            $0.bytes += chunk
            $0.connection = connection
        }
    }

    func waitFor(byteCount: Int) async throws {
        while bytes.count < byteCount {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Records every chunk and pauses reading after the first.
private final class PauseAfterFirstChunk: ConnectionHandler {
    let recorder: Recorder
    var paused = false

    init(_ recorder: Recorder) {
        self.recorder = recorder
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        recorder.record(frame, from: connection)
        if !paused {
            paused = true
            connection.pauseReading()
        }
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {}
}

extension RawSocket {
    /// Sends counting bytes without blocking until the kernel takes no more; returns what it took.
    /// Gives up past 32 MiB (far beyond loopback's buffers): the peer must be reading.
    func sendUntilFull(seed: Int) throws -> [UInt8] {
        var sent: [UInt8] = []
        while sent.count < 32 << 20 {
            let chunk = (0..<65_536).map { UInt8(truncatingIfNeeded: sent.count + $0 + seed) }
            let count = chunk.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if count < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK else { throw TestFailure("send: errno \(errno)") }
                return sent
            }
            sent += chunk[..<count]
        }
        throw TestFailure("32 MiB sent without the socket filling up: the peer kept reading")
    }
}
