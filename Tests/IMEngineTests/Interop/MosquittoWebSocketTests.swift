import Foundation
import IMEngine
import IMProtocol
import IMTransport
import Testing
import TestSupport

/// The engine over MQTT over WebSocket against a stock mosquitto's `protocol websockets`
/// listener, plain and over TLS: login, a QoS 1 message acknowledged, the transport reported.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct MosquittoWebSocketTests {
    func exchange(tls: Bool) async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let certificates = try TestCertificates.make(in: directory.path + "/certs")
        let broker = try StockMosquitto(
            directory: directory.path, certificate: tls ? certificates.serverCertificate : nil, key: tls ? certificates.serverKey : nil,
            users: [TestTokens.appKey: TestTokens.token(for: "alice")], webSocket: true)
        defer { broker.stop() }
        let port = try #require(broker.webSocketPort)
        let server = ServerAddress(host: "localhost", port: port, tls: tls, webSocketPath: "/mqtt")
        let engine = try SessionEngine(EngineConfiguration(
            appKey: TestTokens.appKey, servers: [server], dataDirectory: directory.path + "/data", callbacks: .immediate,
            networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: .seconds(3)))
        let session = engine.makeSession(ConnectParameters(
            token: TestTokens.token(for: "alice"), deviceID: "web-alice", platform: .web,
            tls: tls ? TLSClientConfiguration(caPath: certificates.caFile) : nil))
        try await withTimeout(.seconds(20)) {
            let error = await session.connectionError()
            #expect(error == nil, "\(String(describing: error)); \(broker.output)")
            #expect(await session.connectedServer == server)
            #expect(await session.connectedServer?.description == "\(tls ? "wss" : "ws")://localhost:\(port)/mqtt")
            #expect((await session.connectedTLS != nil) == tls)
            let reports = await session.sendReports()
            let message = try await session.send(text: "over a WebSocket", to: "bob")
            for await report in reports where report.cid == message.cid {
                #expect(report.isAccepted, "\(report)")
                break
            }
        }
        #expect(broker.output.contains("web-alice"), "mosquitto saw the client: \(broker.output)")
        await engine.shutdown()
    }

    @Test func connectsAndSendsQoS1OverPlainWebSocket() async throws {
        try await exchange(tls: false)
    }

    @Test func connectsAndSendsQoS1OverWebSocketOverTLS() async throws {
        try await exchange(tls: true)
    }
}
