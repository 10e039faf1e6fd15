import Foundation
import IMProcess
import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Will messages of a stock client (paho-mqtt): sent as the client's message to the will's
/// recipient when its connection ends abnormally, after the Will Delay Interval, and not after
/// DISCONNECT 0x00; Will Retain is refused since the server announces Retain Available 0.
@Suite(.timeLimit(.minutes(1)))
struct WillMessageTests {
    static let script = PahoPeer.stockClient("paho_will.py")

    /// Runs paho_will.py as alice with `options` and returns its first line (`connack XX`).
    func pahoWill(_ server: TestServer, _ options: [String] = []) async throws -> String {
        let arguments = [Self.script, "--port", String(server.port), "--app-key", TestServer.appKey,
                         "--token", try await server.token("alice")] + options
        let output = try await offPool { try ChildProcess.run("/usr/bin/env", ["python3"] + arguments, timeout: .seconds(30)) }
        guard output.termination.status == 0 else {
            throw PahoFailure("paho_will.py failed: \(String(decoding: output.stderr, as: UTF8.self))")
        }
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// The text of the next message `client` receives within `timeout`, acknowledged; nil if none.
    func nextText(_ client: MQTTTestClient, within timeout: Duration = .seconds(5)) async throws -> String? {
        guard case .publish(let publish)? = await client.next(within: timeout) else { return nil }
        try await client.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        let message = try TextMessage.decode(publish.payload)
        return "\(publish.topic) \(message.text)"
    }

    @Test func aClosedSocketOrAKeepAliveTimeoutSendsTheWillAndDisconnect0x00DoesNot() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await pahoWill(server, ["--end", "disconnect", "--text", "clean"]) == "connack 00")
        #expect(try await pahoWill(server, ["--end", "close", "--text", "crashed"]) == "connack 00")
        #expect(try await nextText(bob) == "im/inbox/alice crashed")
        #expect(try await pahoWill(server, ["--end", "with-will", "--text", "with will"]) == "connack 00")
        #expect(try await nextText(bob) == "im/inbox/alice with will")
        #expect(try await pahoWill(server, ["--end", "silent", "--text", "timed out"]) == "connack 00")
        #expect(try await nextText(bob) == "im/inbox/alice timed out")
        #expect(try await nextText(bob, within: .milliseconds(300)) == nil, "the clean DISCONNECT's will was sent")
        await server.stop()
    }

    @Test func anMQTT311ClientsWillIsSentAfterAClosedSocketOnly() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await pahoWill(server, ["--protocol", "3.1.1", "--end", "disconnect", "--text", "clean"]) == "connack 00")
        #expect(try await pahoWill(server, ["--protocol", "3.1.1", "--end", "close", "--text", "3.1.1 crashed"]) == "connack 00")
        #expect(try await nextText(bob) == "im/inbox/alice 3.1.1 crashed")
        #expect(try await nextText(bob, within: .milliseconds(300)) == nil)
        await server.stop()
    }

    @Test func aWillToAnOfflineRecipientIsStoredForIt() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        try await server.loggedIn("bob", device: "phone-b").close()
        #expect(try await pahoWill(server, ["--end", "close", "--text", "while away"]) == "connack 00")
        try await Task.sleep(for: .milliseconds(300))
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await nextText(bob) == "im/inbox/alice while away")
        await server.stop()
    }

    @Test func willRetainIsRefusedWith0x9AAndAWillElsewhereWith0x87() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        #expect(try await pahoWill(server, ["--retain"]) == "connack 9a")
        #expect(try await pahoWill(server, ["--to", "bob/x"]) == "connack 87")
        await server.stop()
    }

    @Test func theWillDelayIsHonouredAndAReconnectionWithinItCancelsTheWill() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        let started = ContinuousClock.now
        #expect(try await pahoWill(server, ["--end", "close", "--delay", "2", "--text", "late"]) == "connack 00")
        #expect(try await nextText(bob, within: .seconds(1)) == nil)
        #expect(try await nextText(bob) == "im/inbox/alice late")
        #expect(ContinuousClock.now - started >= .seconds(2))

        #expect(try await pahoWill(server, ["--end", "close", "--delay", "2", "--text", "cancelled"]) == "connack 00")
        // Back at once (python's start-up could take the whole delay on a loaded machine).
        let back = try await server.loggedIn("alice", device: "paho-will")
        #expect(try await nextText(bob, within: .seconds(3)) == nil, "a reconnection within the delay let the will go")
        back.close()
        await server.stop()
    }

    @Test func aKickedUserLeavesNoWill() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let bob = try await server.loggedIn("bob", device: "phone-b")
        let alice = try await MQTTTestClient.open(port: server.port)
        try await alice.send(.connect(Connect(
            clientIdentifier: "phone-a", userName: TestServer.appKey, password: Array(try await server.token("alice").utf8),
            will: Will(topic: "im/send/bob", payload: TextMessage(text: "kicked", cid: "k1").encoded(), qos: .atLeastOnce))))
        guard case .connack(let connack)? = await alice.next() else { Issue.record("no CONNACK"); return }
        #expect(connack.reasonCode == .success)
        try await server.backend.kick(appKey: TestServer.appKey, userIDs: ["alice"])
        #expect(await alice.closed())
        #expect(try await nextText(bob, within: .milliseconds(500)) == nil, "a kicked user's will was sent")
        await server.stop()
    }
}
