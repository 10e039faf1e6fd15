import IMHTTPClient
import IMJSON
import IMProtocol
import IMHTTP
import IMProfiles
import IMServer
@testable import IMShell
import IMTransport
import Testing

/// Profiles whose server is not embedded: MQTT and the signed HTTP API over the network.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RemoteServerTests {
    @Test func everyTokenSourceConnectsAndTheAPIKicks() async throws {
        let server = try await TestServer.start()
        let literal = try await server.token(for: "frank")
        let command = try await server.token(for: "gina")
        let sandbox = Sandbox(shipped: false)
        sandbox.write(server.profile(accounts: """
            {
              "from-api": { "userId": "erin" },
              "literal": { "token": "\(literal)", "platform": "pc" },
              "command": { "tokenCommand": "echo \(command)", "platform": "web" }
            }
            """), to: "profiles/remote.json")
        let run = try await sandbox.json("connect all; accounts; kick from-api; wait from-api kickedOfflineByOtherClient --timeout 20")
        await server.stop()
        #expect(run.status == 0, "\(run.stderr)")
        let connect = try #require(run.result("connect"))
        #expect(connect.accounts.map { $0.string("userId") } == ["erin", "frank", "gina"])
        #expect(connect.accounts.allSatisfy { $0["status"] == "connected" })
        #expect(run.result("accounts")?.accounts.map { $0.string("token") } == ["server API", "token eyJ2…", "command echo eyJ2…"])
        let kicked = run.statusEvents().first { $0["status"] == "kickedOfflineByOtherClient" }
        #expect(kicked?["account"] == "remote/from-api" && kicked?["errorCode"] == 31010 && kicked?["detail"] == "kicked")
        for token in [literal, command] {
            #expect(!run.stdout.contains(token) && !run.stderr.contains(token), "tokens never leave imsh unredacted")
        }
    }

    @Test func aWrongSecretOrAnUnreachableAPIIsExplained() async throws {
        let server = try await TestServer.start()
        let sandbox = Sandbox(shipped: false)
        sandbox.write(server.profile(accounts: #"{ "a": { "userId": "a" } }"#, secret: "not-the-secret"), to: "profiles/wrong.json")
        sandbox.write(server.profile(accounts: #"{ "b": { "userId": "b" } }"#, api: "http://127.0.0.1:1"), to: "profiles/gone.json")
        let run = try await sandbox.json("connect gone/b --timeout 2; connect wrong/a; block wrong/a 1")
        await server.stop()
        #expect(run.status == 1)
        let gone = try #require(run.result("connect")).accounts.first?.string("message")
        // The engine fetches server-API tokens like any token source: an API that does not
        // answer is retried like an unreachable server, until the connect's timeout.
        #expect(gone?.hasPrefix("timeout (14), error 34006 RC_CONNECT_TIMEOUT: ") == true, "\(gone ?? "")")
        #expect(gone?.contains("last attempt: could not get a token from the server API of profile gone: server API http://127.0.0.1:1/user/getToken.json did not answer: ") == true)
        let wrong = try #require(run.result("connect", 1)).accounts.first?.string("message")
        // 401: the app key is unknown to the server or its secret wrong, as the contract's 31008.
        #expect(wrong?.hasPrefix("unconnected (11), error 31008 ") == true, "\(wrong ?? "")")
        #expect(wrong?.contains("could not get a token from the server API of profile wrong: server API http://127.0.0.1:\(server.apiPort)/user/getToken.json refused (HTTP 401, code 1004): signature does not match") == true)
        #expect(wrong?.hasSuffix("; check the profile's appKey and appSecret") == true)
        #expect(try #require(run.result("block")).accounts.first?.string("message")?.contains("/user/block.json refused (HTTP 401, code 1004)") == true)
        #expect(!run.stdout.contains("not-the-secret"), "the secret redacted even in messages")
    }

    @Test func theClientSignsEveryCall() async throws {
        let server = try await TestServer.start()
        let group = try EventLoopGroup(threads: 1, name: "api-client-test")
        let client = ServerAPIClient(
            baseURL: HTTPURL(host: "127.0.0.1", port: server.apiPort), appKey: TestServer.appKey,
            appSecret: Secret(TestServer.appSecret), loop: group.next(), timeout: .seconds(10))
        let token = try await client.issueToken(userID: "hank")
        #expect(try TokenClaims.read(token).userID == "hank")
        #expect(try await client.isOnline(userID: "hank") == false)
        try await client.block(userIDs: ["hank", "ivy"], minutes: 1)
        try await client.unblock(userIDs: ["hank", "ivy"])
        try await client.kick(userIDs: ["hank"])
        try await client.expireTokens(userIDs: ["hank"], before: 1)
        await #expect(throws: ServerAPIError.refused(
            url: "http://127.0.0.1:\(server.apiPort)/user/block.json", status: 400, code: 1002,
            message: "minute: 0 is out of range 1-43200 of minutes")) {
            try await client.block(userIDs: ["hank"], minutes: 0)
        }
        await server.stop()
        group.shutdown()
    }
}
