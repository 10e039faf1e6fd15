import IMEngine
import Testing
import TestSupport

/// Messages kept by the server for a device while it was away reach it once, in full.
@Suite(.timeLimit(.minutes(2)))
struct BacklogIntegrationTests {
    @Test func aBacklogKeptWhileOfflineIsStoredOnceWhenTheDeviceReturns() async throws {
        try await withIntegration(limit: .seconds(90)) { harness in
            let proxy = try harness.proxy()
            let receiver = try await harness.session("bob", device: "phone-bob", on: harness.engine(via: proxy)) { $0.heartbeat = 1 }
            _ = try await receiver.connect()
            await receiver.disconnect()
            let backend = try harness.server.backend
            let total = 1000
            var uids: [String] = []
            for number in 0..<total {
                uids.append(try await backend.publish(appKey: IntegrationServer.appKey, from: "alice", to: ["bob"], text: "kept \(number)"))
            }
            _ = try await receiver.connect()
            // The stream is cut twice while the backlog flows.
            for _ in 0..<2 {
                try await Task.sleep(for: .milliseconds(150))
                await proxy.set(.close)
                await proxy.set(.pass)
            }
            #expect(await eventually(within: .seconds(60)) {
                (try? await receiver.history(peer: "alice", limit: 2 * total).count) == total
            })
            let stored = try await receiver.history(peer: "alice", limit: 2 * total)
            #expect(Set(stored.compactMap(\.uid)) == Set(uids))
            #expect(await receiver.statuses.filter { $0 == .connected }.count >= 3)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await receiver.history(peer: "alice", limit: 2 * total).count == total)
        }
    }
}
