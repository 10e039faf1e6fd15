@testable import IMServer
import Testing

/// The replay guard alone, in virtual time.
struct APINonceReplayGuardTests {
    private let window: Int64 = 1000

    @Test func refusesANonceUntilTheLaterOfNowAndItsTimestampPlusTheWindow() {
        let guarding = NonceReplayGuard(capacity: 10, window: window)
        #expect(guarding.admit(appKey: "a", nonce: "n", timestamp: 100, now: 0) == .accepted)
        #expect(guarding.admit(appKey: "a", nonce: "n", timestamp: 100, now: 1099) == .replayed)
        #expect(guarding.admit(appKey: "b", nonce: "n", timestamp: 100, now: 1099) == .accepted)
        #expect(guarding.admit(appKey: "a", nonce: "n", timestamp: 1100, now: 1100) == .accepted)
        #expect(guarding.admit(appKey: "a", nonce: "n", timestamp: 1100, now: 2099) == .replayed)
    }

    @Test func aFullAppIsRefusedUntilItsOldestNonceExpiresAndExpiredOnesAreDropped() {
        let guarding = NonceReplayGuard(capacity: 3, window: window)
        for (index, nonce) in ["a", "b", "c"].enumerated() {
            #expect(guarding.admit(appKey: "k", nonce: nonce, timestamp: Int64(index), now: Int64(index)) == .accepted)
        }
        #expect(guarding.admit(appKey: "k", nonce: "d", timestamp: 10, now: 10) == .full(retryAfter: 990))
        #expect(guarding.admit(appKey: "other", nonce: "d", timestamp: 10, now: 10) == .accepted)
        #expect(guarding.admit(appKey: "k", nonce: "d", timestamp: 1000, now: 1000) == .accepted)
        #expect(guarding.count(appKey: "k", now: 1000) == 3)
        #expect(guarding.count(appKey: "k", now: 1999) == 1)
        #expect(guarding.count(appKey: "k", now: 2000) == 0)
    }

    @Test func staysBoundedUnderASteadyStream() {
        let guarding = NonceReplayGuard(capacity: 500, window: window)
        var accepted = 0
        for step in 0..<20_000 {
            let now = Int64(step)  // one request per ms: twice what the window holds
            if guarding.admit(appKey: "k", nonce: "n\(step)", timestamp: now, now: now) == .accepted { accepted += 1 }
            #expect(guarding.count(appKey: "k", now: now) <= 500)
        }
        // Each window admits a full share, as old nonces expire: 500 per 1000 ms.
        #expect(accepted == 20 * 500)
    }
}
