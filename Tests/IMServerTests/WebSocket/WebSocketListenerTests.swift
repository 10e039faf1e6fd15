import Foundation
import IMProcess
import IMServer
import IMTransport
import Testing
import TestSupport

/// imserver's WebSocket listeners (ws and wss, path /mqtt) against stock paho-mqtt with
/// `transport="websockets"`: token login, QoS 1 both ways, and the kick of a second device.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct WebSocketListenerTests {
    func exchange(port: UInt16, ca: String?, server: TestServer) async throws -> String {
        var arguments = [
            "python3", TLSListenerTests.pahoScript, "--websockets", "--kick", "--port", String(port),
            "--app-key", TestServer.appKey, "--alice-token", try await server.token("alice"),
            "--bob-token", try await server.token("bob"),
        ]
        if let ca { arguments += ["--ca", ca] }
        let command = arguments
        let output = try await offPool { try ChildProcess.run("/usr/bin/env", command, timeout: .seconds(30)) }
        #expect(output.termination.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout, as: UTF8.self)
    }

    @Test func pahoOverWebSocketLogsInExchangesQoS1AndIsKickedWith0x8E() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let output = try await exchange(port: try #require(server.webSocketPort), ca: nil, server: server)
        #expect(output == "plain puback 00 im/inbox/alice qos1 over TLS\nkicked 8e\n")
        await server.stop()
    }

    @Test func pahoOverSecureWebSocketLogsInExchangesQoS1AndIsKickedWith0x8E() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let output = try await exchange(port: try #require(server.secureWebSocketPort), ca: fixture.certificates.caFile, server: server)
        #expect(output == "TLSv1.3 puback 00 im/inbox/alice qos1 over TLS\nkicked 8e\n")
        await server.stop()
    }

    @Test func imserverNamesItsWebSocketListenersAndServesThem() async throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        let made = try ChildProcess.run(ImserverProcess.binary, ["cert", "--out", out, "--host", "localhost"], timeout: .seconds(20))
        #expect(made.termination.status == 0)
        let server = try await ImserverProcess.start(dataDirectory: directory.path + "/data", extra: [
            "--ws-listen", "127.0.0.1:0", "--wss-listen", "127.0.0.1:0", "--cert", out + "/server.pem", "--key", out + "/server.key",
        ])
        #expect(Set(server.listening.keys) == ["event", "mqtt", "api", "ws", "wss"])
        for (name, tls) in [("ws", nil), ("wss", try TLSConnectSettings(
            context: TLSContext.client(TLSClientConfiguration(caPath: out + "/ca.pem")), serverName: "localhost"))] {
            let port = try #require(server.listening[name]?.split(separator: ":").last.flatMap { UInt16($0) })
            let client = try await MQTTTestClient.open(port: port, tls: tls, webSocket: WebSocketSettings())
            let connack = try await client.login(appKey: ImserverProcess.appKey, token: try ImserverProcess.token("alice"), device: "web-\(name)")
            #expect(connack?.reasonCode == .success, "\(name)")
        }
        #expect(try await server.stop(SIGTERM) == .exited(0))
    }
}
