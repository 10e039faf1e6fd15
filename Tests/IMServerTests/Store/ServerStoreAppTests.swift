import IMServer
import Testing
import TestSupport

struct ServerStoreAppTests {
    let configured = [
        AppSettings(appKey: "alpha", appSecret: "alpha-secret"),
        AppSettings(appKey: "beta", appSecret: "beta-secret", blocked: true),
    ]

    @Test func overridesPersistAcrossReopen() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        #expect(try await store.appOverrides().isEmpty)
        try await store.setAppBlocked("alpha", true)
        try await store.setAppBlocked("beta", false)
        let secret = try await store.rotateSecret("alpha", now: 1_000)
        await store.close()

        let reopened = try await directory.open()
        let overrides = try await reopened.appOverrides()
        #expect(overrides == [
            "alpha": AppOverride(blocked: true, secret: secret, secretRotatedAt: 1_000),
            "beta": AppOverride(blocked: false),
        ])
        let effective = try await reopened.effectiveApps(configured: configured)
        #expect(effective.map(\.appKey) == ["alpha", "beta"])
        #expect(effective[0].blocked && effective[0].appSecret == secret)
        #expect(!effective[1].blocked && effective[1].appSecret == "beta-secret")
        await reopened.close()
    }

    @Test func rotatedSecretsAreNewRandomHex() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        let first = try await store.rotateSecret("alpha", now: 1)
        let second = try await store.rotateSecret("alpha", now: 2)
        #expect(first != second)
        for secret in [first, second] {
            #expect(secret.count == 32)
            #expect(secret.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        // Rotating keeps a blocked flag set before, and the latest secret wins.
        try await store.setAppBlocked("alpha", true)
        let third = try await store.rotateSecret("alpha", now: 3)
        #expect(try await store.appOverrides()["alpha"] == AppOverride(blocked: true, secret: third, secretRotatedAt: 3))
        await store.close()
    }

    @Test func overridesOfUnconfiguredAppsAreIgnored() {
        let merged = AppOverride.effectiveApps(
            configured: configured, overrides: ["gone": AppOverride(blocked: true), "beta": AppOverride(secret: "new")])
        #expect(merged == [configured[0], AppSettings(appKey: "beta", appSecret: "new", blocked: true)])
    }

    @Test func externalChangeCounterMovesOnAnotherConnectionsCommitOnly() async throws {
        let directory = TemporaryDirectory()
        let server = try await directory.open()
        let cli = try await directory.open()
        let start = try await server.externalChangeCounter()
        try await server.setAppBlocked("alpha", true)
        #expect(try await server.externalChangeCounter() == start)

        try await cli.setAppBlocked("alpha", false)
        let afterCLI = try await server.externalChangeCounter()
        #expect(afterCLI != start)
        #expect(try await server.appOverrides()["alpha"]?.blocked == false)
        #expect(try await server.externalChangeCounter() == afterCLI)
        await cli.close()
        await server.close()
    }
}
