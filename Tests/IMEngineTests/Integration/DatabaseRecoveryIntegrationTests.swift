import Foundation
import IMEngine
import Testing

/// A damaged local database does not keep a user from logging in to the real server.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseRecoveryIntegrationTests {
    @Test func aCorruptDatabaseIsMovedAsideAndRecreatedThenTheSessionConnects() async throws {
        try await withIntegration { harness in
            let engine = try harness.engine()
            let directory = try #require(harness.directory(of: engine))
            let path = SessionDatabase.path(directory: directory, appKey: IntegrationServer.appKey, userID: "alice")
            let folder = String(path[..<path.lastIndex(of: "/")!])
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: URL(fileURLWithPath: path))

            let session = try await harness.session("alice", device: "phone-alice", on: engine)
            let calls = CallRecorder()
            await session.connect(databaseOpened: calls.databaseOpened, completion: calls.completed)
            _ = await calls.waitForCompletion(within: .seconds(10))
            #expect(calls.events == [.databaseOpened(isRecreated: true, error: nil), .completed(userID: "alice", error: nil)])

            // The damaged file is kept beside the new one, untouched.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder)
            let aside = try #require(files.first { $0.hasPrefix("alice.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") && !$0.hasSuffix("-journal") })
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + aside)) == garbage)
            // The new database works: a message from the server is stored in it.
            let messages = await session.receivedMessages()
            let uid = try await harness.server.backend.publish(
                appKey: IntegrationServer.appKey, from: "bob", to: ["alice"], text: "after recovery")
            var iterator = messages.makeAsyncIterator()
            #expect(await iterator.next()?.uid == uid)
            #expect(DatabaseProbe.count(uid: uid, in: path) == 1)
        }
    }
}
