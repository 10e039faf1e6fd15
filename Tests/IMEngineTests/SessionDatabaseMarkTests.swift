import Foundation
import TestSupport
import IMEngine
import Testing

/// The server's answers to sent messages cost no commit of their own: they ride the session's
/// next transaction, or go alone after the patience; reads and `close` write them first.
struct SessionDatabaseMarkTests {
    /// The states of alice's outgoing messages as her file holds them (read without its lock,
    /// which the open database keeps).
    private func fileStates(_ database: SessionDatabase) throws -> [String: StoredMessage.State] {
        guard let rows = FileSnapshot.rows(database.path, "SELECT cid, state FROM message WHERE direction = 1") else {
            throw TestFailure("cannot read \(database.path)")
        }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0].string ?? "", StoredMessage.State(rawValue: Int($0[1].int64 ?? -1)) ?? .failed) })
    }

    private func open(_ directory: TemporaryDirectory, patience: Duration) async throws -> SessionDatabase {
        try await SessionDatabase.open(directory: directory.path, appKey: "dev", userID: "alice", markPatience: patience).database
    }

    @Test func marksRideTheNextTransactionAndReadsWriteThemFirst() async throws {
        let directory = TemporaryDirectory()
        let database = try await open(directory, patience: .seconds(3600))
        _ = try await database.enqueueOutgoing(cid: "c1", to: "bob", text: "one", at: 1)
        database.markAcknowledged(sent: ["c1"], failed: [])
        #expect(try fileStates(database) == ["c1": .pending])
        _ = try await database.enqueueOutgoing(cid: "c2", to: "bob", text: "two", at: 2)
        #expect(try fileStates(database) == ["c1": .sent, "c2": .pending])

        _ = try await database.enqueueOutgoing(cid: "c3", to: "bob", text: "three", at: 3)
        database.markAcknowledged(sent: ["c2"], failed: ["c3"])
        #expect(try await database.pendingOutgoing().isEmpty)
        #expect(try fileStates(database) == ["c1": .sent, "c2": .sent, "c3": .failed])

        _ = try await database.enqueueOutgoing(cid: "c4", to: "bob", text: "four", at: 4)
        database.markAcknowledged(sent: ["c4"], failed: [])
        await database.close()
        let reopened = try await open(directory, patience: .seconds(3600))
        #expect(try await reopened.pendingOutgoing().isEmpty)
        await reopened.close()
    }

    @Test func marksWithNothingToRideAreWrittenAloneAfterThePatience() async throws {
        let directory = TemporaryDirectory()
        let database = try await open(directory, patience: .milliseconds(20))
        _ = try await database.enqueueOutgoing(cid: "c1", to: "bob", text: "one", at: 1)
        database.markAcknowledged(sent: ["c1"], failed: [])
        #expect(await eventually(within: .seconds(10)) { (try? fileStates(database)) == ["c1": .sent] })
        // The lone write is queued again for the next marks.
        _ = try await database.enqueueOutgoing(cid: "c2", to: "bob", text: "two", at: 2)
        database.markAcknowledged(sent: [], failed: ["c2"])
        #expect(await eventually(within: .seconds(10)) { (try? fileStates(database)) == ["c1": .sent, "c2": .failed] })
        await database.close()
    }

    @Test func aFailedTransactionKeepsTheMarksItWasToWrite() async throws {
        let directory = TemporaryDirectory()
        let database = try await open(directory, patience: .seconds(3600))
        _ = try await database.enqueueOutgoing(cid: "c1", to: "bob", text: "one", at: 1)
        database.markAcknowledged(sent: ["c1"], failed: [])
        // A second outgoing message with the same cid breaks a unique index: the transaction
        // that carried the mark rolls back.
        await #expect(throws: (any Error).self) {
            _ = try await database.enqueueOutgoing(cid: "c1", to: "bob", text: "again", at: 2)
        }
        #expect(try fileStates(database) == ["c1": .pending])
        #expect(try await database.history().map(\.state) == [.sent])
        #expect(try fileStates(database) == ["c1": .sent])
        await database.close()
    }
}
