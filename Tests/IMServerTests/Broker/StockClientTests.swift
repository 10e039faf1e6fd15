import Foundation
import TestSupport
import IMProcess
import IMServer
import Testing

/// A stock MQTT 5 client (paho-mqtt, installed by scripts/bootstrap) logs in to our server.
@Suite(.timeLimit(.minutes(1)))
struct StockClientTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StockClient/paho_login.py").path

    func runPaho(port: UInt16, token: String) throws -> (status: Int32, output: String, errors: String) {
        let output = try ChildProcess.run(
            "/usr/bin/env", ["python3", Self.script, "--port", String(port), "--app-key", TestServer.appKey, "--token", token],
            timeout: .seconds(30))
        return (output.termination.status, String(decoding: output.stdout, as: UTF8.self), String(decoding: output.stderr, as: UTF8.self))
    }

    @Test func pahoLogsInWithAppKeyAndTokenAndIsRefusedWithAWrongToken() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let good = try runPaho(port: server.port, token: try await server.token("alice"))
        #expect(good.status == 0, "paho failed: \(good.errors)")
        #expect(good.output == "00 alice\n")
        let bad = try runPaho(port: server.port, token: "not-a-token")
        #expect(bad.status == 0, "paho failed: \(bad.errors)")
        #expect(bad.output == "86 \n")
        await server.stop()
    }
}
