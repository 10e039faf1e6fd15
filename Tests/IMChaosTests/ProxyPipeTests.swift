@testable import IMChaos
import Testing

/// The queue of one direction: due times and the byte rate, on a clock the test moves.
struct ProxyPipeTests {
    let start = ContinuousClock.now

    @Test func chunksLeaveWhenDueAndNeverBeforeEarlierOnes() {
        let pipe = ProxyPipe(towardServer: true)
        pipe.append([1], delay: .milliseconds(300), now: start)
        // Queued later with a shorter delay: still behind the first.
        pipe.append([2], delay: .zero, now: start + .milliseconds(10))
        #expect(pipe.take(now: start + .milliseconds(100), bytesPerSecond: nil) == .wait(.milliseconds(200)))
        #expect(pipe.take(now: start + .milliseconds(300), bytesPerSecond: nil) == .bytes([1]))
        #expect(pipe.take(now: start + .milliseconds(300), bytesPerSecond: nil) == .bytes([2]))
        #expect(pipe.take(now: start + .milliseconds(300), bytesPerSecond: nil) == .empty)
        #expect(pipe.queuedBytes == 0)
    }

    @Test func expediteMakesEverythingDueNow() {
        let pipe = ProxyPipe(towardServer: false)
        pipe.append([1, 2], delay: .seconds(60), now: start)
        pipe.expedite(now: start + .milliseconds(5))
        #expect(pipe.take(now: start + .milliseconds(5), bytesPerSecond: nil) == .bytes([1, 2]))
    }

    @Test func aRateReleasesPiecesOfATwentiethOfASecond() {
        let pipe = ProxyPipe(towardServer: true)
        pipe.append(Array(repeating: 7, count: 250), delay: .zero, now: start)
        // 2,000 B/s: pieces of 100 bytes, the first after 50 ms.
        #expect(pipe.take(now: start, bytesPerSecond: 2_000) == .wait(.milliseconds(50)))
        #expect(pipe.take(now: start + .milliseconds(50), bytesPerSecond: 2_000) == .bytes(Array(repeating: 7, count: 100)))
        #expect(pipe.take(now: start + .milliseconds(50), bytesPerSecond: 2_000) == .wait(.milliseconds(50)))
        // A long pause does not build up more than one piece.
        #expect(pipe.take(now: start + .seconds(5), bytesPerSecond: 2_000) == .bytes(Array(repeating: 7, count: 100)))
        #expect(pipe.queuedBytes == 50)
        #expect(pipe.take(now: start + .seconds(5) + .milliseconds(25), bytesPerSecond: 2_000) == .bytes(Array(repeating: 7, count: 50)))
        #expect(pipe.take(now: start + .seconds(6), bytesPerSecond: 2_000) == .empty)
    }
}
