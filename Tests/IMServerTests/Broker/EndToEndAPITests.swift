import IMHTTP
import IMJSON
import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// The HTTP server API and the MQTT side of one server together, as an app server and its
/// users' devices see them.
@Suite(.timeLimit(.minutes(1)))
struct EndToEndAPITests {
    func call(_ server: TestServer, _ path: String, _ fields: [(String, String)]) async throws -> (HTTPStatus, JSONValue) {
        let client = try await APITestClient.connect(port: server.apiPort, on: MQTTTestClient.loops.next())
        defer { client.close() }
        let signer = APISigner(appKey: TestServer.appKey, secret: TestServer.secret)
        try await client.send(APIRequests.post(path, fields, signing: signer.headers(timestamp: server.now())))
        var reader = client.reader()
        let response = try await reader.next()
        return (response.status, try response.json)
    }

    @Test func aTokenFromGetTokenLogsInAndTheAdminCallsReachTheDevice() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let (status, answer) = try await call(server, "/user/getToken.json", [("userId", "alice"), ("name", "Alice")])
        #expect(status == .ok)
        let token = try #require(answer.objectValue?["token"]?.stringValue)
        #expect(answer.objectValue?["userId"]?.stringValue == "alice")

        let device = try await MQTTTestClient.open(port: server.port)
        let connack = try await device.login(appKey: TestServer.appKey, token: token, device: "phone-1")
        #expect(connack?.reasonCode == .success && connack?.properties.userProperty(IMUserProperty.userID) == "alice")
        _ = try await device.subscribeInbox()

        #expect(try await call(server, "/user/checkOnline.json", [("userId", "alice")]).1.objectValue?["status"]?.stringValue == "1")
        let published = try await call(server, "/message/private/publish.json",
                                       [("fromUserId", "system"), ("toUserId", "alice"), ("content", #"{"text":"hi"}"#)])
        #expect(published.0 == .ok)
        guard case .publish(let publish)? = await device.next() else { Issue.record("no delivery"); return }
        #expect(try TextMessage.decode(publish.payload).text == "hi")
        try await device.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))

        #expect(try await call(server, "/user/kick.json", [("userId", "alice")]).0 == .ok)
        guard case .disconnect(let disconnect)? = await device.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .administrativeAction)
        #expect(disconnect.properties.userProperty(IMUserProperty.error) == "kicked")
        #expect(try await call(server, "/user/checkOnline.json", [("userId", "alice")]).1.objectValue?["status"]?.stringValue == "0")

        // Expiring tokens through the API refuses the old token at the next login.
        server.advanceWallClock(by: 1)
        #expect(try await call(server, "/user/token/expire.json", [("userId", "alice"), ("time", String(server.now()))]).0 == .ok)
        let again = try await MQTTTestClient.open(port: server.port)
        let refused = try await again.login(appKey: TestServer.appKey, token: token, device: "phone-1")
        #expect(refused?.reasonCode == .badUserNameOrPassword)
        #expect(refused?.properties.userProperty(IMUserProperty.error) == "token-expired")
        await server.stop()
    }

    /// A request that outlives the server's shutdown (still waiting when its grace ended) gets
    /// an answer instead of stopping the process: its loop is gone.
    @Test func theBackendAnswersAfterTheServerStopped() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let backend = server.server.backend
        await server.stop()
        #expect(await backend.isOnline(appKey: TestServer.appKey, userID: "alice") == false)
        #expect(await backend.app(forKey: TestServer.appKey) == nil)
        await #expect(throws: ServerError.stopping) {
            _ = try await backend.publish(appKey: TestServer.appKey, from: "alice", to: ["bob"], text: "late")
        }
        // No device is connected any more: a kick has nothing left to do here (on PostgreSQL,
        // telling the other nodes fails: the store is closed). Either way it returns.
        _ = try? await backend.kick(appKey: TestServer.appKey, userIDs: ["alice"])
    }
}
