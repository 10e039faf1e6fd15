import IMEngine
import IMProtocol
import IMStore
import MQTT
import Synchronization
import Testing
import TestSupport

/// Sends on the session's loop (`SessionOutbox`): what happens to sends that wait when the
/// session closes, and to sends that meet another connection's lock (taken while the session
/// had given its file back, idle, as the sqlite3 shell could: while open the file is its alone).
@Suite(.timeLimit(.minutes(1)))
struct SessionOutboxTests {
    /// What one send came to: the stored message's cid, or the error.
    private enum Outcome: Sendable {
        case stored(String)
        case failed(EngineError)
    }

    private static func send(_ session: Session, _ text: String) async -> Outcome {
        do throws(EngineError) {
            return .stored(try await session.send(text: text, to: "bob").cid ?? "")
        } catch {
            return .failed(error)
        }
    }

    @Test func sendsWaitingWhenTheSessionClosesFailAsNotConnectedAndTheOneUnderWayIsStored() async throws {
        try await withBroker(databaseIdleClose: .milliseconds(100)) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let path = try #require(await session.databaseFile)
            let holder = try await DatabaseProbe.holdWriteLock(path)
            // The first send's store waits for the lock on the database's queue; the rest wait
            // behind it in the outbox.
            let first = Task { await Self.send(session, "first") }
            try await Task.sleep(for: .milliseconds(200))
            let rest = (1...5).map { index in Task { await Self.send(session, "later \(index)") } }
            try await Task.sleep(for: .milliseconds(200))
            let closing = Task { await session.close() }
            try await Task.sleep(for: .milliseconds(200))
            try holder.executeScript("ROLLBACK")
            holder.close()
            await closing.value

            guard case .stored(let cid) = await first.value else {
                Issue.record("the send under way was not stored: \(await first.value)")
                return
            }
            #expect(DatabaseProbe.state(cid: cid, in: path) != nil)
            for task in rest {
                guard case .failed(let error) = await task.value else {
                    Issue.record("a send that waited was stored after close")
                    continue
                }
                #expect(error == .notConnected("the session closed its database"))
            }
        }
    }

    @Test func sendsThatMeetAnotherConnectionsLockArePublishedInOrderOnceItIsGone() async throws {
        try await withBroker(databaseIdleClose: .milliseconds(100)) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let path = try #require(await session.databaseFile)
            let holder = try await DatabaseProbe.holdWriteLock(path)
            let sends = Task {
                var cids: [String] = []
                for index in 0..<3 {
                    if case .stored(let cid) = await Self.send(session, "m\(index)") { cids.append(cid) }
                }
                return cids
            }
            try await Task.sleep(for: .milliseconds(300))
            // Nothing goes on the wire before it is stored.
            #expect(broker.publishes.isEmpty)
            try holder.executeScript("ROLLBACK")
            holder.close()
            let cids = await sends.value
            #expect(cids.count == 3)
            // Each send its own cid: 32 lowercase hex digits.
            #expect(Set(cids).count == 3 && cids.allSatisfy { $0.utf8.count == 32 && $0.allSatisfy { $0.isHexDigit && !$0.isUppercase } })
            #expect(await eventually { broker.publishes.count == 3 })
            let published = broker.publishes.map { (try? TextMessage.decode($0.payload))?.cid ?? "" }
            #expect(published == cids)
            #expect(await eventually { (try? await session.pendingOutgoing().isEmpty) == true })
            await session.close()
        }
    }
}
