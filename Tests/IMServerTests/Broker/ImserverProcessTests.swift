import Foundation
import IMProcess
import IMProtocol
import MQTT
import Testing

/// The `imserver` executable as an operator runs it: port 0, --json, a client, then SIGTERM.
@Suite(.timeLimit(.minutes(1)))
struct ImserverProcessTests {
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("imserver").path
    }

    @Test func listensOnAFreePortServesTheDevelopmentAppAndStopsGracefullyOnSIGTERM() async throws {
        let directory = StoreTemporaryDirectory()
        let process = try ChildProcess.spawn(
            Self.binary, ["--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--data", directory.path, "--json"], stderr: .null)
        let out = FileHandle(fileDescriptor: process.stdout!, closeOnDealloc: true)
        var ended = false
        defer { if !ended { process.signal(SIGKILL); _ = process.wait() } }

        let firstLine = try #require(readLine(out))
        let event = try #require(try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: String])
        #expect(event["event"] == "listening")
        #expect(Set(event.keys) == ["event", "mqtt", "api"])
        #expect(event["api"]?.hasPrefix("127.0.0.1:") == true && event["api"] != "127.0.0.1:0")
        let port = try #require(event["mqtt"].flatMap { $0.split(separator: ":").last }.flatMap { UInt16($0) })

        // The documented development app works at once.
        let token = try Token.issue(appKey: "imsh-dev", secret: "imsh-dev-secret", userID: "alice", issuedAt: Int64(Date().timeIntervalSince1970 * 1000))
        let client = try await MQTTTestClient.open(port: port)
        let connack = try await client.login(appKey: "imsh-dev", token: token, device: "phone-1")
        #expect(connack?.reasonCode == .success)

        process.signal(SIGTERM)
        guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .serverShuttingDown)
        #expect(readLine(out)?.contains(#""event":"stopped""#) == true)
        #expect(process.wait() == .exited(0))
        ended = true
    }

    @Test func aPortInUseIsAnErrorWithExitStatus1() async throws {
        let directory = StoreTemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let output = try ChildProcess.run(
            Self.binary, ["--listen", "127.0.0.1:\(server.port)", "--api", "127.0.0.1:0", "--data", directory.path + "/other"],
            timeout: .seconds(30))
        #expect(output.termination == .exited(1))
        let message = String(decoding: output.stderr, as: UTF8.self)
        #expect(message.contains("127.0.0.1:\(server.port)"))
        await server.stop()
    }

    /// One line from `handle`, without its newline; nil at end of file.
    func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}
