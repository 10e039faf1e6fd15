import Foundation
import IMJSON
import IMServer
import IMTransport
import Testing
import TestSupport

/// imsh over MQTT over WebSocket end to end: the shipped prod profile's web account, `ws://`
/// and `wss://` profiles against a stock mosquitto's websockets listener, and an endpoint
/// that answers HTTP without upgrading; `status --json` tells the transport.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WebSocketProfileTests {
    @Test func theShippedProdProfilesWebAccountConnectsOverWebSocketOverTLS() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("use prod; connect carol-web carol-phone; status carol-web; status carol-phone")
        #expect(run.result("connect")?.accounts.allSatisfy { $0["status"] == "connected" } == true, "\(run.stdout) \(run.stderr)")
        let web = try #require(run.result("status")?.accounts.first)
        #expect(web.string("transport") == "wss")
        #expect(web.string("server")?.hasPrefix("wss://127.0.0.1:") == true && web.string("server")?.hasSuffix("/mqtt") == true)
        #expect(web["tls"]?.objectValue?.string("version") == "TLSv1.3")
        #expect(run.result("status", 1)?.accounts.first?.string("transport") == "mqtts", "a mobile account stays on MQTT over TLS")
    }

    @Test(arguments: [false, true])
    func aProfileReachesStockMosquittosWebSocketListener(tls: Bool) async throws {
        let sandbox = Sandbox(shipped: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.root)
        let certificates = try TestCertificates.make(in: sandbox.root + "/certs")
        let broker = try StockMosquitto(
            directory: sandbox.root, certificate: tls ? certificates.serverCertificate : nil, key: tls ? certificates.serverKey : nil,
            users: ["imsh-ws": "ws-secret"], webSocket: true)
        defer { broker.stop() }
        let port = try #require(broker.webSocketPort)
        let scheme = tls ? "wss" : "ws"
        sandbox.write("""
            {"appKey": "imsh-ws", "server": "\(scheme)://localhost:\(port)", "tls": {"ca": "\(certificates.caFile)"},
             "accounts": {"alice": {"userId": "alice", "token": "ws-secret", "platform": "web"}}}
            """, to: "profiles/stock.json")
        let run = try await sandbox.json("connect stock/alice; status stock/alice; send stock/alice bob hello")
        #expect(run.result("connect")?.accounts.first?["status"] == "connected", "\(run.stdout) \(run.stderr) \(broker.output)")
        let status = try #require(run.result("status")?.accounts.first)
        #expect(status.string("transport") == scheme)
        #expect(status.string("server") == "\(scheme)://localhost:\(port)/mqtt")
        #expect(run.result("send")?["ok"] == true, "\(run.stdout)")
    }

    @Test func anEndpointThatAnswersHTTPWithoutUpgradingIsNamedWith34021() async throws {
        let sandbox = Sandbox(shipped: false)
        let server = try await TestServer.start()
        let port = try #require(server.server.webSocketAddress?.port)
        sandbox.write("""
            {"appKey": "\(TestServer.appKey)", "server": "ws://127.0.0.1:\(port)/chat",
             "accounts": {"erin": {"userId": "erin", "platform": "web", "token": "\(try await server.token(for: "erin"))"}}}
            """, to: "profiles/web.json")
        let run = try await sandbox.json("connect web/erin")
        await server.stop()
        let outcome = try #require(run.result("connect")?.accounts.first, "\(run.stdout) \(run.stderr)")
        #expect(outcome["status"] == "unconnected")
        #expect(outcome["errorCode"] == 34021)
        #expect(outcome.string("message")?.contains("HTTP 404 Not Found instead of 101 Switching Protocols") == true, "\(outcome)")
    }
}
