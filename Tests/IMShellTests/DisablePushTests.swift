import IMJSON
import IMServer
import Testing

/// `disconnect --disable-push` as the seeds' SDK means it: no push notifications for the
/// device until it connects again, while the server keeps its messages (imsh-protocol(7),
/// DISCONNECT from the client).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DisablePushTests {
    @Test func aMessageSentWhilePushIsOffIsDeliveredAtTheNextConnect() async throws {
        let server = try await TestServer.start()
        let sandbox = Sandbox(shipped: false)
        sandbox.write(server.profile(accounts: """
            { "alice-phone": { "userId": "alice", "deviceId": "alice-phone" }, "bob-phone": { "userId": "bob" } }
            """), to: "profiles/remote.json")
        let first = try await sandbox.json(
            "connect alice-phone bob-phone; disconnect alice-phone --disable-push; send bob-phone alice 'sent while push is off'")
        let recorded = await server.server.pushDisabledDevices(appKey: TestServer.appKey, userID: "alice")
        let second = try await sandbox.json("connect alice-phone; sleep 1.5")
        let afterLogin = await server.server.pushDisabledDevices(appKey: TestServer.appKey, userID: "alice")
        await server.stop()

        #expect(first.status == 0, "\(first.stderr)")
        let signedOut = first.statusEvents().first { $0["account"] == "remote/alice-phone" && $0["status"] == "signOut" }
        #expect(signedOut?.string("detail") == "disconnected by the app, push disabled")
        #expect(first.result("send")?["ok"] == true, "the server stored the message")
        #expect(recorded == ["alice-phone"], "the server records push off for the device that asked")

        #expect(second.status == 0, "\(second.stderr)")
        let messages = second.jsonObjects().filter { $0["event"] == "message" && $0["account"] == "remote/alice-phone" }
        #expect(messages.map { $0.string("text") } == ["sent while push is off"], "kept and delivered at the next connect")
        #expect(afterLogin.isEmpty, "logging in again turns push back on")
    }
}
