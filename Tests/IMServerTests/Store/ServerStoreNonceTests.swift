import IMServer
import Testing
import TestSupport

/// API nonces in the store: refused while remembered, also after reopening, free again once expired.
struct ServerStoreNonceTests {
    @Test func aNonceIsAdmittedOnceUntilItExpires() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        #expect(try await store.admitNonce(appKey: "app", nonce: "n1", expiresAt: 1_000, now: 0))
        #expect(try await !store.admitNonce(appKey: "app", nonce: "n1", expiresAt: 1_500, now: 500))
        #expect(try await store.admitNonce(appKey: "other", nonce: "n1", expiresAt: 1_000, now: 500))
        await store.close()

        let reopened = try await directory.open()
        #expect(try await !reopened.admitNonce(appKey: "app", nonce: "n1", expiresAt: 1_900, now: 900))
        #expect(try await reopened.admitNonce(appKey: "app", nonce: "n1", expiresAt: 2_000, now: 1_000))
        try await reopened.forgetNonces(expiredAt: 2_000)
        #expect(try await reopened.admitNonce(appKey: "app", nonce: "n1", expiresAt: 3_000, now: 1_200))
        await reopened.close()
    }
}
