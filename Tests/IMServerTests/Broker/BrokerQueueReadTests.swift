import IMProtocol
import MQTT
import Testing
import TestSupport
@testable import IMServer

/// When the broker reads a device's queue: a connection that has read its whole queue is
/// handed each message as it is stored, so neither the delivery nor its acknowledgement
/// costs a read of the queue (a transaction of its own at light load).
///
/// SQLite's lane only: PostgreSQL's does not keep order across nodes, so its connections read
/// their queue at each wake-up by design.
@Suite(.timeLimit(.minutes(1)), .disabled(if: TestPostgresDatabase.isConfigured, "the SQLite lane's reads"))
struct BrokerQueueReadTests {
    @Test func aConversationAtLightLoadReadsNoQueue() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        // Both connections have read their (empty) queues once they are answered.
        try await bob.send(.pingreq)
        #expect(await bob.next() == .pingresp)
        let before = try await committedCalls(server)
        let count = 10
        for index in 0..<count {
            #expect(try await alice.sendText("m\(index)", to: "bob", cid: "c\(index)", packetID: UInt16(index + 1)) == .success)
            guard case .publish(let publish)? = await bob.next() else {
                Issue.record("delivery \(index) is missing")
                break
            }
            try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
            try await bob.send(.pingreq)
            #expect(await bob.next() == .pingresp)
        }
        // The last acknowledgement waits for company at most `lateWriteDelay`.
        try await Task.sleep(for: SQLiteMessageLane.lateWriteDelay * 10)
        let calls = try await committedCalls(server) - before
        // One store and one acknowledgement per message; a read of the queue after each
        // acknowledgement made it three.
        #expect(calls == 2 * count, "\(calls) calls committed for \(count) messages")
        bob.close()
        let again = try await server.loggedIn("bob", device: "phone-b")
        #expect(await again.next(within: .milliseconds(300)) == nil, "every acknowledged message left the queue")
        await server.stop()
    }

    private func committedCalls(_ server: TestServer) async throws -> Int {
        let core = server.server.core
        let calls: Int? = await withCheckedContinuation { continuation in
            let queued = server.server.loop.execute {
                continuation.resume(returning: (core.value.lane as? SQLiteMessageLane)?.committedCalls)
            }
            if !queued { continuation.resume(returning: nil) }
        }
        guard let calls else { throw TestFailure("the server's lane is not SQLite's, or its loop is gone") }
        return calls
    }
}
