import IMServer
import Testing

struct ConnectRateLimiterTests {
    @Test func burstThenSustainedRate() {
        var limiter = ConnectRateLimiter(rate: 10, burst: 5)
        let start = Duration.seconds(100)
        let first = (0..<8).map { _ in limiter.tryAcquire(now: start) }
        #expect(first.filter { $0 }.count == 5)
        // 0.3 s later three more tokens have accrued.
        let later = (0..<5).map { _ in limiter.tryAcquire(now: start + .milliseconds(300)) }
        #expect(later.filter { $0 }.count == 3)
        // A long pause refills to the burst, not beyond.
        let refilled = (0..<10).map { _ in limiter.tryAcquire(now: start + .seconds(60)) }
        #expect(refilled.filter { $0 }.count == 5)
    }

    @Test func clockGoingBackwardsGrantsNothingExtra() {
        var limiter = ConnectRateLimiter(rate: 1, burst: 1)
        let granted = [10, 5, 10.5, 11].map { limiter.tryAcquire(now: .seconds($0)) }
        #expect(granted == [true, false, false, true])
    }

    @Test func zeroRateMeansUnlimited() {
        var limiter = ConnectRateLimiter(rate: 0)
        let granted = (0..<1000).filter { _ in limiter.tryAcquire(now: .zero) }.count
        #expect(granted == 1000)
    }
}
