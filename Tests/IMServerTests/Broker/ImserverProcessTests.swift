import Foundation
import TestSupport
import IMProcess
import IMProtocol
import MQTT
import Testing

/// The `imserver` executable as an operator runs it: port 0, --json, a client, then SIGTERM.
@Suite(.timeLimit(.minutes(1)))
struct ImserverProcessTests {
    @Test func listensOnAFreePortServesTheDevelopmentAppAndStopsGracefullyOnSIGTERM() async throws {
        let directory = TemporaryDirectory()
        let server = try await ImserverProcess.start(dataDirectory: directory.path)
        #expect(server.listening["event"] == "listening")
        #expect(Set(server.listening.keys) == ["event", "mqtt", "api"])
        #expect(server.listening["api"]?.hasPrefix("127.0.0.1:") == true && server.listening["api"] != "127.0.0.1:0")

        // The documented development app works at once.
        let client = try await MQTTTestClient.open(port: server.mqttPort)
        let connack = try await client.login(appKey: ImserverProcess.appKey, token: try ImserverProcess.token("alice"), device: "phone-1")
        #expect(connack?.reasonCode == .success)

        server.process.signal(SIGTERM)
        guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .serverShuttingDown)
        #expect(server.readLine()?.contains(#""event":"stopped""#) == true)
        #expect(try await server.waitForExit() == .exited(0))
    }

    @Test func aPortInUseIsAnErrorWithExitStatus1() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let output = try ChildProcess.run(
            ImserverProcess.binary, ["--listen", "127.0.0.1:\(server.port)", "--api", "127.0.0.1:0", "--data", directory.path + "/other"],
            timeout: .seconds(30))
        #expect(output.termination == .exited(1))
        let message = String(decoding: output.stderr, as: UTF8.self)
        #expect(message.contains("127.0.0.1:\(server.port)"))
        await server.stop()
    }
}
