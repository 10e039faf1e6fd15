import Foundation
import TestSupport
import IMServer
import Testing

/// A stock MQTT 5 client (paho-mqtt, installed by scripts/bootstrap) logs in to our server.
@Suite(.timeLimit(.minutes(1)))
struct StockClientTests {
    @Test func pahoLogsInWithAppKeyAndTokenAndIsRefusedWithAWrongToken() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        func login(_ token: String) async throws -> String? {
            try await PahoPeer.run("receive", port: server.port, appKey: TestServer.appKey, token: token,
                                   ["--user-id", "--wait", "0.1"]).first
        }
        #expect(try await login(try await server.token("alice")) == "connack 00 alice")
        #expect(try await login("not-a-token") == "connack 86 token-incorrect")
        await server.stop()
    }
}
