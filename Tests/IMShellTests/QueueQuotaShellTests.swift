import IMServer
import Testing

/// A send past the sender's storage quota is reported to the imsh user as the server's
/// refusal, with its `im-error` and reason, and the message is marked failed.
@Suite(.timeLimit(.minutes(1)))
struct QueueQuotaShellTests {
    @Test func aSendPastTheQuotaSaysQuotaExceeded() async throws {
        let server = try await TestServer.start(queueQuota: QueueQuota(messages: 1, bytes: 1000))
        let sandbox = Sandbox(shipped: false)
        sandbox.write(server.profile(accounts: #"{ "alice": { "userId": "alice" } }"#), to: "profiles/remote.json")
        let run = try await sandbox.json("connect remote/alice; send remote/alice bob first; send remote/alice bob second")
        await server.stop()
        #expect(run.result("send")?["ok"] == true, "\(run.stdout)")
        let refused = try #require(run.result("send", 1))
        #expect(refused["ok"] == false)
        #expect(refused.string("error") == "the server refused the message: 0x97 quota exceeded (quota-exceeded: "
            + "1 messages (5 bytes) you sent are waiting for delivery; the app allows 1 messages, 1000 bytes)", "\(run.stdout)")
    }
}
