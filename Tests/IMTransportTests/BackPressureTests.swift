import Glibc
import IMTransport
import Synchronization
import Testing
import TestSupport

/// A peer that stops reading fills the bounded outgoing buffer, then gets cut off.
struct BackPressureTests {
    @Test func writerSeesTheBufferFullAndPastTheCapTheConnectionCloses() async throws {
        let peer = try RawSocket.listen(receiveBufferSize: 4096)
        defer { peer.close() }
        let echo = try EchoServer()
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            echo.shutdown()
        }
        let limits = ConnectionOptions(highWaterMark: 64 * 1024, lowWaterMark: 16 * 1024, outboundLimit: 1024 * 1024)
        let frame = TestFrames.publish(payloadSize: 16 * 1024)
        let (peerPort, echoPort) = (peer.port, echo.port)
        try await withTimeout(.seconds(30)) {
            let stalled = try await connect(port: peerPort, on: loop, limits: limits)
            let held = try await onThread { try peer.accept() }  // accepted, never read
            defer { held.close() }
            let closed = stalled.frames()

            // An async writer makes progress until the socket buffers fill, then waits.
            let written = Atomic<Int>(0)
            let writer = Task {
                for _ in 0..<10_000 {
                    try await stalled.write(frame)
                    written.add(1, ordering: .relaxed)
                }
            }
            // Wait for the first write (a busy machine may start the task late), then until writes stop.
            while written.load(ordering: .relaxed) == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            var last = -1
            while written.load(ordering: .relaxed) != last {
                last = written.load(ordering: .relaxed)
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(last > 0 && last < 10_000, "writer made \(last) writes")
            // Waiting for room, not failed: still open, not writable, the queue above its high-water mark.
            let (open, writable, queued) = try await onLoop(loop) {
                (stalled.isOpen, stalled.isWritable, stalled.queuedByteCount)
            }
            #expect(open && !writable && queued >= limits.highWaterMark && queued <= limits.outboundLimit)

            // Another connection on the same loop is not held up.
            let other = try await connect(port: echoPort, on: loop)
            try await expectEcho(of: [TestFrames.pingRequest], over: other)
            other.close()

            // A writer that ignores `.full` pushes the queue past the cap: the connection is closed.
            let outcome = try await onLoop(loop) { () -> (sends: Int, error: TransportError?) in
                for sends in 1...100 {
                    do throws(TransportError) {
                        try stalled.send(frame)
                    } catch {
                        return (sends, error)
                    }
                }
                return (100, nil)
            }
            #expect(outcome.error == .outboundBufferOverflow(limit: 1024 * 1024))
            #expect(outcome.sends <= 1024 * 1024 / frame.count + 1)
            await #expect(throws: TransportError.outboundBufferOverflow(limit: 1024 * 1024)) {
                try await writer.value
            }
            await #expect(throws: TransportError.outboundBufferOverflow(limit: 1024 * 1024)) {
                for try await _ in closed {}
            }
        }
    }
}
