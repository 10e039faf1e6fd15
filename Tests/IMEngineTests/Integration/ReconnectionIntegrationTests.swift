import Foundation
import IMEngine
import Synchronization
import Testing
import TestSupport

/// Connections lost or missing at awkward moments: the server down at login, cut in the
/// middle of a message stream, and lost with a token that stopped working meanwhile.
@Suite(.timeLimit(.minutes(2)))
struct ReconnectionIntegrationTests {
    @Test func sessionsStartedWhileTheServerIsDownConnectOnceItIsBack() async throws {
        try await withIntegration(limit: .seconds(60)) { harness in
            let sessions = try await harness.sessions(20, on: harness.engine())
            await harness.server.stop()
            let connecting = Task {
                await withTaskGroup(of: String?.self) { group in
                    for session in sessions { group.addTask { try? await session.connect() } }
                    var users: [String?] = []
                    for await user in group { users.append(user) }
                    return users
                }
            }
            // Refused connections are retried on the backoff schedule (0.05 s, 0.25 s, 0.5 s, ...).
            #expect(await eventually(within: .seconds(10)) { await sessions.allLastStatus(.connecting) })
            try await Task.sleep(for: .milliseconds(300))
            for session in sessions {
                let history = await session.statusHistory
                #expect(history.map(\.status) == [.connecting], "\(history)")
            }
            try await harness.server.start()
            let users = await connecting.value
            #expect(Set(users.compactMap { $0 }) == Set((0..<20).map { "user\($0)" }))
            for index in 0..<20 { #expect(try await harness.server.isOnline("user\(index)")) }
        }
    }

    @Test func messagesCrossAFlappingNetworkExactlyOnce() async throws {
        try await withIntegration(limit: .seconds(90)) { harness in
            let proxy = try harness.proxy()
            // The proxy closes links faster than the takeover window (three closes within 5 s of
            // login read as another device): this test is about delivery, so that rule is off here.
            let flapping = try harness.engine(via: proxy, takeoverLimit: 0)
            let sender = try await harness.session("alice", device: "phone-alice", on: flapping)
            let receiver = try await harness.session("bob", device: "phone-bob", on: flapping)
            _ = try await sender.connect()
            _ = try await receiver.connect()

            let total = 100
            let flaps = Task {
                for _ in 0..<5 {
                    try await Task.sleep(for: .milliseconds(120))
                    await proxy.set(.close)
                    try await Task.sleep(for: .milliseconds(30))
                    await proxy.set(.pass)
                }
            }
            for number in 0..<total {
                _ = try await sender.send(text: "flap \(number)", to: "bob")
                try await Task.sleep(for: .milliseconds(8))
            }
            try await flaps.value

            #expect(await eventually(within: .seconds(40)) {
                let received = (try? await receiver.history(peer: "alice", limit: 2 * total).count) ?? 0
                let pending = (try? await sender.pendingOutgoing().count) ?? -1
                return received == total && pending == 0
            })
            let stored = try await receiver.history(peer: "alice", limit: 2 * total)
            #expect(Set(stored.compactMap(\.cid)).count == stored.count)
            #expect(Set(stored.map(\.text)) == Set((0..<total).map { "flap \($0)" }))
            #expect(await sender.statuses.filter { $0 == .connected }.count > 1)
            #expect(await sender.status == .connected)
            #expect(await receiver.status == .connected)
        }
    }

    /// Tokens were invalidated while the session was online (it stays online); when it must log
    /// in again, the server refuses the old token (31020) and the session fetches a fresh one.
    @Test func anInvalidatedTokenIsReplacedFromTheTokenSourceOnReconnection() async throws {
        try await withIntegration { harness in
            let tokenFile = harness.server.directory.path + "/fresh-token"
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine()) {
                $0.tokenSource = .command("cat '\(tokenFile)'")
            }
            _ = try await session.connect()
            let backend = try harness.server.backend
            try await backend.expireTokens(appKey: IntegrationServer.appKey, userIDs: ["alice"], before: harness.server.now() + 1)
            try await Task.sleep(for: .milliseconds(5))
            try await harness.server.token("alice").write(toFile: tokenFile, atomically: true, encoding: .utf8)
            #expect(await session.status == .connected)

            try await harness.server.restart()
            #expect(await eventually(within: .seconds(15)) {
                await session.statuses.filter { $0 == .connected }.count == 2
            })
            #expect(await session.statuses == [.connecting, .connected, .connecting, .connecting, .connected])
            // The token it started with is refused now, so the session logged in with the fresh one.
            let stale = try #require(session.parameters.token)
            let other = try harness.engine().makeSession(ConnectParameters(token: stale, deviceID: "phone-alice-2"))
            #expect(await other.connectionError()?.code == .tokenExpired)
        }
    }
}
