import Foundation
import IMEncoding
import TestSupport
import IMJSON
import IMProtocol
import IMServer
import MQTT
import Testing

/// Hostile input on the MQTT port (issue 7's list): a length that announces a huge packet,
/// slow senders, and user ids that try to name paths.
@Suite(.timeLimit(.minutes(1)))
struct BrokerBadInputTests {
    /// A fixed header announcing the largest length MQTT can encode (256 MiB), and nothing after it.
    static let hugeHeader: [UInt8] = [0x30, 0xFF, 0xFF, 0xFF, 0x7F]

    @Test func aHugeAnnouncedLengthClosesTheConnectionWithoutWaitingForTheBody() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let other = try await server.loggedIn("bob", device: "phone-b")

        let anonymous = try await MQTTTestClient.open(port: server.port)
        try await anonymous.connection.write([0x10, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(await anonymous.closed(within: .seconds(2)), "a CONNECT announcing 256 MiB")

        let loggedIn = try await server.loggedIn("alice", device: "phone-a")
        try await loggedIn.connection.write(Self.hugeHeader)
        var packets: [Packet] = []
        while let packet = await loggedIn.next(within: .seconds(2)) { packets.append(packet) }
        #expect(await loggedIn.closed(within: .zero), "a PUBLISH announcing 256 MiB after login")
        #expect(packets.allSatisfy { if case .disconnect(let d) = $0 { d.reasonCode == .packetTooLarge } else { false } }, "\(packets)")

        try await other.send(.pingreq)
        #expect(await other.next() == .pingresp)
        await server.stop()
    }

    @Test func aConnectTrickledAByteAtATimeIsCutOffAtTheConnectTimeout() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        // Long enough for the others' CONNECT to arrive in time on a busy machine.
        limits.connectTimeout = .seconds(2)
        let server = try await TestServer.start(directory: directory, limits: limits)
        let token = try await server.token("mallory")
        let connect = Packet.connect(Connect(clientIdentifier: "slow", cleanStart: false, keepAlive: 30,
                                             userName: TestServer.appKey, password: Array(token.utf8))).encoded()
        // Before connecting: the server's clock starts when it accepts.
        let started = ContinuousClock.now
        let slow = try await MQTTTestClient.open(port: server.port)
        let trickle = trickling(connect, to: slow)
        defer { trickle.cancel() }
        // Others log in meanwhile.
        let alice = try await server.loggedIn("alice", device: "phone-a")

        #expect(await slow.closed(within: .seconds(6)))
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(2) && elapsed < Self.byteInterval * connect.count, "closed after \(elapsed)")
        #expect(await slow.next(within: .zero) == nil, "no CONNACK for the half-sent CONNECT")
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)
        await server.stop()
    }

    @Test func aLoggedInClientTricklingAPacketIsDisconnectedByKeepAlive() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let slow = try await MQTTTestClient.open(port: server.port)
        let connack = try await slow.login(appKey: TestServer.appKey, token: try await server.token("mallory"), device: "slow", keepAlive: 1)
        #expect(connack?.reasonCode == .success)
        // Bytes keep coming, but never a whole packet: keep-alive counts packets, not bytes.
        let publish = Packet.publish(Publish(topic: "im/send/bob", payload: Array(repeating: 0x41, count: 200), qos: .atLeastOnce,
                                             packetIdentifier: 1)).encoded()
        let started = ContinuousClock.now
        let trickle = trickling(publish, to: slow)
        defer { trickle.cancel() }
        guard case .disconnect(let disconnect)? = await slow.next(within: .seconds(4)) else {
            Issue.record("no DISCONNECT")
            return
        }
        #expect(disconnect.reasonCode == .keepAliveTimeout)
        #expect(ContinuousClock.now - started < Self.byteInterval * publish.count)
        #expect(await slow.closed())
        await server.stop()
    }

    @Test func userIDsWithPathCharactersAreRefusedAndNameNoFile() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        // A token properly signed with the app's secret (the same forging works for a plain
        // user id), but naming a path as its user.
        let control = try await MQTTTestClient.open(port: server.port)
        #expect(try await control.login(appKey: TestServer.appKey, token: signedToken(user: "x"), device: "phone-x")?.reasonCode == .success)
        control.close()
        for user in ["../x", "a/b", "..", "/etc/passwd"] {
            let client = try await MQTTTestClient.open(port: server.port)
            let connack = try await client.login(appKey: TestServer.appKey, token: signedToken(user: user), device: "phone-x")
            #expect(connack?.reasonCode == .badUserNameOrPassword && connack?.properties.userProperty(IMUserProperty.error) == "token-incorrect",
                    "\(user): \(String(describing: connack))")
            #expect(await client.closed())
        }
        // Nor can a logged-in client send to such a user.
        let alice = try await server.loggedIn("alice", device: "phone-a")
        for (index, topic) in ["im/send/../x", "im/send/a/b", "im/send/..", "im/send/", "im/send/%2e%2e"].enumerated() {
            let code = try await alice.sendText("x", to: "unused", cid: "c\(index)", packetID: UInt16(index + 1), topic: topic)
            #expect(code == .notAuthorized, "\(topic)")
        }
        await server.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("server.sqlite") }
        #expect(files.isEmpty, "\(files)")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/../x") == false)
    }

    /// How long a slow sender waits between bytes.
    static let byteInterval = Duration.milliseconds(50)

    /// Sends `bytes` one at a time, `byteInterval` apart, until done, closed or cancelled.
    private func trickling(_ bytes: [UInt8], to client: MQTTTestClient) -> Task<Void, any Error> {
        Task {
            for byte in bytes {
                try await client.connection.write([byte])
                try await Task.sleep(for: Self.byteInterval)
            }
        }
    }

    /// A token of the test app for `user`, signed with its secret, bypassing `Token.issue`'s checks.
    private func signedToken(user: String) -> String {
        let claims: JSONValue = [
            "v": .integer(1), "k": .string(TestServer.appKey), "u": .string(user),
            "t": .integer(Int64(Date().timeIntervalSince1970 * 1000)), "n": .string("00ff"),
        ]
        let payload = Base64URL.encode(claims.encoded())
        return payload + "." + Base64URL.encode(Crypto.hmacSHA256(key: Array(TestServer.secret.utf8), message: Array(payload.utf8)))
    }
}
