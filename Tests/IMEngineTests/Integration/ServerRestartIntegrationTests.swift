import IMEngine
import Synchronization
import Testing
import TestSupport

/// The server goes away (graceful stop: DISCONNECT 0x8B) and comes back on the same data
/// directory and port: sessions return by themselves, and no message is lost or doubled.
@Suite(.timeLimit(.minutes(3)))
struct ServerRestartIntegrationTests {
    @Test func everySessionIsConnectedAgainAfterTheServerRestartsOnItsPort() async throws {
        try await withIntegration(limit: .seconds(60)) { harness in
            let sessions = try await harness.sessions(20, on: harness.engine())
            try await withThrowingTaskGroup(of: String.self) { group in
                for session in sessions { group.addTask { try await session.connect() } }
                try await group.waitForAll()
            }
            let port = harness.server.port

            await harness.server.stop()
            #expect(await eventually(within: .seconds(10)) { await sessions.allLastStatus(.connecting) })
            try await harness.server.start()
            #expect(harness.server.port == port)

            #expect(await eventually(within: .seconds(20)) { await sessions.allLastStatus(.connected) })
            for (index, session) in sessions.enumerated() {
                // Server shutting down is retried: no terminal status, one reconnection.
                #expect(await session.statuses == [.connecting, .connected, .connecting, .connected], "session \(index)")
                #expect(try await harness.server.isOnline("user\(index)"))
            }
        }
    }

    @Test func twoHundredMessagesAreStoredExactlyOnceAcrossTwoServerRestarts() async throws {
        try await withIntegration(limit: .seconds(120)) { harness in
            let sender = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            let receiver = try await harness.session("bob", device: "phone-bob", on: harness.engine())
            let received = await receiver.receivedMessages()
            _ = try await sender.connect()
            _ = try await receiver.connect()

            let total = 200
            let sent = Atomic<Int>(0)
            // Each restart comes once enough messages are out and both sessions are back from the last.
            let restarts = Task {
                for (index, threshold) in [60, 130].enumerated() {
                    while sent.load(ordering: .relaxed) < threshold { try await Task.sleep(for: .milliseconds(2)) }
                    for session in [sender, receiver] {
                        guard await eventually(within: .seconds(20), { await session.connectedCount == index + 1 }) else {
                            throw TestFailure("a session did not come back after restart \(index)")
                        }
                    }
                    try await harness.server.restart()
                }
            }
            for number in 0..<total {
                _ = try await sender.send(text: "message \(number)", to: "bob")
                sent.add(1, ordering: .relaxed)
                try await Task.sleep(for: .milliseconds(5))
            }
            try await restarts.value

            // Each new message is announced once, after it was stored.
            var announced = 0
            for await _ in received {
                announced += 1
                if announced == total { break }
            }
            #expect(announced == total)
            #expect(await eventually(within: .seconds(20)) { (try? await sender.pendingOutgoing().isEmpty) == true })

            let stored = try await receiver.history(peer: "alice", limit: 10 * total)
            #expect(stored.count == total)
            #expect(stored.allSatisfy { $0.direction == .incoming && $0.uid != nil })
            #expect(Set(stored.compactMap(\.uid)).count == total)
            #expect(Set(stored.compactMap(\.cid)).count == total)
            #expect(Set(stored.map(\.text)) == Set((0..<total).map { "message \($0)" }))
            // What the receiver's file holds, read from outside: each uid and each cid once.
            let path = try #require(await receiver.databaseFile)
            let counts = DatabaseProbe.rows(
                path, "SELECT count(*), count(DISTINCT uid), count(DISTINCT cid) FROM message WHERE direction = 0").first
            #expect(counts.map { [$0[0].int64, $0[1].int64, $0[2].int64] } == Array(repeating: Int64(total), count: 3))
            for uid in stored.compactMap(\.uid).prefix(20) { #expect(DatabaseProbe.count(uid: uid, in: path) == 1) }
            let outgoing = try await sender.history(peer: "bob", limit: 10 * total)
            #expect(outgoing.count == total && outgoing.allSatisfy { $0.state == .sent })
            // Both came back from each restart by themselves.
            #expect(await eventually { await sender.connectedCount == 3 })
            #expect(await eventually { await receiver.connectedCount == 3 })
        }
    }
}

extension Session {
    /// How many times the session was connected.
    var connectedCount: Int { statuses.filter { $0 == .connected }.count }
}

extension [Session] {
    /// Whether every session's latest status is `status`.
    func allLastStatus(_ status: ConnectionStatus) async -> Bool {
        for session in self where await session.status != status { return false }
        return true
    }
}
