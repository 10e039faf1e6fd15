import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Logins that reach the server together share its store calls; each must still get its own answer.
@Suite(.timeLimit(.minutes(1)))
struct BrokerLoginBurstTests {
    @Test func manyLoginsAtOnceEachGetTheirOwnAnswer() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        try await server.backend.block(appKey: TestServer.appKey, userIDs: ["carol"], minutes: 10)
        try await server.backend.deactivate(appKey: TestServer.appKey, userIDs: ["dave"])
        var logins: [(user: String, device: String, token: String)] = []
        for index in 0..<120 { logins.append(("u\(index)", "pc-\(index)", try await server.token("u\(index)"))) }
        for (user, device) in [("carol", "phone-c"), ("dave", "phone-d"), ("alice", "phone-a"), ("alice", "phone-b")] {
            logins.append((user, device, try await server.token(user)))
        }
        var clients: [MQTTTestClient] = []
        for _ in logins { clients.append(try await MQTTTestClient.open(port: server.port)) }
        let opened = clients
        let answers = try await withThrowingTaskGroup(of: (Int, ConnAck?).self) { group in
            for (index, login) in logins.enumerated() {
                let client = opened[index]
                let platform = login.user.hasPrefix("u") ? "pc" : nil
                group.addTask {
                    (index, try await client.login(appKey: TestServer.appKey, token: login.token, device: login.device, platform: platform))
                }
            }
            var answers = [ConnAck?](repeating: nil, count: logins.count)
            for try await (index, connack) in group { answers[index] = connack }
            return answers
        }
        for (index, login) in logins.enumerated() {
            let connack = answers[index]
            switch login.user {
            case "carol":
                #expect(connack?.reasonCode == .banned && connack?.properties.userProperty(IMUserProperty.error) == "user-blocked")
            case "dave":
                #expect(connack?.reasonCode == .notAuthorized && connack?.properties.userProperty(IMUserProperty.error) == "user-abandoned")
            default:
                #expect(connack?.reasonCode == .success, "\(login.user)")
                #expect(connack?.properties.userProperty(IMUserProperty.userID) == login.user)
            }
        }
        // Alice's two phones logged in together: the later login takes over, exactly one remains.
        let phones = logins.indices.filter { logins[$0].user == "alice" }.map { opened[$0] }
        var kicked = 0
        for phone in phones {
            if case .disconnect(let disconnect)? = await phone.next(within: .seconds(1)) {
                #expect(disconnect.reasonCode == .sessionTakenOver)
                kicked += 1
            }
        }
        #expect(kicked == 1)
        #expect(await server.backend.isOnline(appKey: TestServer.appKey, userID: "u119"))
        for client in opened { client.close() }
        await server.stop()
    }
}
