import IMEngine
import Testing
import TestSupport

/// The app's side of contract section 4 against the real server: background, network, sign out.
@Suite(.timeLimit(.minutes(1)))
struct LifecycleIntegrationTests {
    @Test func aBackgroundedSessionSuspendsAndForegroundBringsItBack() async throws {
        try await withIntegration { harness in
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine()) {
                $0.backgroundGrace = .milliseconds(300)
            }
            _ = try await session.connect()
            await session.enterBackground()
            #expect(await session.reached(.suspend))
            #expect(await eventually { (try? await harness.server.isOnline("alice")) == false })
            await session.enterForeground()
            #expect(await eventually { await session.status == .connected })
            #expect(await session.statuses == [.connecting, .connected, .suspend, .connecting, .connected])
            #expect(try await harness.server.isOnline("alice"))
        }
    }

    @Test func noNetworkPausesAttemptsAndItsReturnReconnectsAtOnce() async throws {
        try await withIntegration { harness in
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            _ = try await session.connect()
            await session.simulateNetwork(.down)
            #expect(await session.status == .networkUnavailable)
            #expect(await eventually { (try? await harness.server.isOnline("alice")) == false })
            await session.simulateNetwork(.up)
            #expect(await eventually { await session.status == .connected })
            #expect(await session.statuses == [.connecting, .connected, .networkUnavailable, .connecting, .connected])
        }
    }

    @Test func signingOutTakesTheDeviceOfflineAndNothingFollows() async throws {
        try await withIntegration { harness in
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            _ = try await session.connect()
            await session.disconnect()
            #expect(await eventually { (try? await harness.server.isOnline("alice")) == false })
            try await Task.sleep(for: .milliseconds(300))
            #expect(await session.statuses == [.connecting, .connected, .signOut])
            // Messages sent meanwhile wait on the server and arrive at the next connect.
            let uid = try await harness.server.backend.publish(
                appKey: IntegrationServer.appKey, from: "bob", to: ["alice"], text: "while away")
            _ = try await session.connect()
            #expect(await eventually { (try? await session.history(peer: "bob").map(\.uid)) == [uid] })
        }
    }
}
