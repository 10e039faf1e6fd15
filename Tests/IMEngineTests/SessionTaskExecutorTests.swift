import IMEngine
import IMTransport
import Testing
import TestSupport

/// A task that prefers a session's executor sends from the session's event loop: the session
/// code it calls and the answer run there too.
@Suite(.timeLimit(.minutes(1)))
struct SessionTaskExecutorTests {
    @Test func sendsFromTheSessionsLoopAreStoredPublishedAndAnsweredThere() async throws {
        let broker = try ScriptedBroker(.init())
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            #expect(await session.taskExecutor == nil, "no loop before the first connect")
            _ = try await session.connect()
            let executor = try #require(await session.taskExecutor)
            let loop = try #require(executor as? EventLoop, "the session's event loop")
            let reports = await session.sendReports()
            let sent = try await withThrowingTaskGroup(of: (StoredMessage, Bool).self) { group in
                for number in 0..<40 {
                    group.addTask(executorPreference: executor) {
                        let message = try await session.send(text: "m\(number)", to: "bob")
                        return (message, loop.inEventLoop)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sent.allSatisfy { $0.1 }, "every answer came back on the loop")
            let cids = Set(sent.compactMap(\.0.cid))
            #expect(cids.count == 40)
            var acknowledged: Set<String> = []
            var iterator = reports.makeAsyncIterator()
            while acknowledged.count < 40, let report = await iterator.next() { acknowledged.insert(report.cid) }
            #expect(acknowledged == cids)
            #expect(try await session.history(peer: "bob").filter { $0.state == .sent }.count == 40)
            #expect(await session.taskExecutor as? EventLoop === loop, "the same loop after sending")
            await session.close()
        }
        await test.shutdown()
    }
}
