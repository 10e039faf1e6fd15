import IMServer
import Testing
import TestSupport

struct ServerStoreUserTests {
    @Test func unknownUserHasTheInitialState() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        #expect(try await store.userState(appKey: "app", userID: "nobody") == .initial)
        await store.close()
    }

    @Test func blockAndUnblockRoundTrip() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.block(appKey: "app", userIDs: ["u1", "u2"], until: 5_000)
        let blocked = try await store.userState(appKey: "app", userID: "u1")
        #expect(blocked == UserState(blockedUntil: 5_000))
        #expect(blocked.isBlocked(at: 4_999))
        #expect(!blocked.isBlocked(at: 5_000))
        #expect(try await store.userState(appKey: "other", userID: "u1") == .initial)

        try await store.unblock(appKey: "app", userIDs: ["u1"])
        #expect(try await store.userState(appKey: "app", userID: "u1") == .initial)
        #expect(try await store.userState(appKey: "app", userID: "u2").blockedUntil == 5_000)
        await store.close()
    }

    @Test func deactivateAndReactivateRoundTrip() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.block(appKey: "app", userIDs: ["u1"], until: 9_000)
        try await store.deactivate(appKey: "app", userIDs: ["u1"])
        #expect(try await store.userState(appKey: "app", userID: "u1") == UserState(blockedUntil: 9_000, deactivated: true))
        try await store.reactivate(appKey: "app", userIDs: ["u1"])
        #expect(try await store.userState(appKey: "app", userID: "u1") == UserState(blockedUntil: 9_000))
        await store.close()
    }

    @Test func expireTokensOnlyMovesForward() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.expireTokens(appKey: "app", userIDs: ["u1"], before: 2_000)
        var state = try await store.userState(appKey: "app", userID: "u1")
        #expect(state.tokensInvalidBefore == 2_000)
        #expect(state.hasExpired(tokenIssuedAt: 1_999))
        #expect(!state.hasExpired(tokenIssuedAt: 2_000))

        try await store.expireTokens(appKey: "app", userIDs: ["u1"], before: 1_000)
        #expect(try await store.userState(appKey: "app", userID: "u1").tokensInvalidBefore == 2_000)
        try await store.expireTokens(appKey: "app", userIDs: ["u1"], before: 3_000)
        state = try await store.userState(appKey: "app", userID: "u1")
        #expect(state == UserState(tokensInvalidBefore: 3_000))
        await store.close()
    }

    @Test func invalidUserIDIsRefusedBeforeWriting() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        await #expect(throws: ServerStoreError.invalidUserID("bad id")) {
            try await store.block(appKey: "app", userIDs: ["good", "bad id"], until: 1)
        }
        #expect(try await store.userState(appKey: "app", userID: "good") == .initial)
        await store.close()
    }

    @Test func stateSurvivesReopening() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        try await store.block(appKey: "app", userIDs: ["u1"], until: 7_000)
        try await store.deactivate(appKey: "app", userIDs: ["u1"])
        try await store.expireTokens(appKey: "app", userIDs: ["u1"], before: 6_000)
        await store.close()

        let reopened = try await directory.open()
        #expect(try await reopened.userState(appKey: "app", userID: "u1")
            == UserState(blockedUntil: 7_000, deactivated: true, tokensInvalidBefore: 6_000))
        await reopened.close()
    }
}
