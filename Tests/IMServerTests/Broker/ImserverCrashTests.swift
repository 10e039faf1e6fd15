import Glibc
import IMProtocol
import MQTT
import Testing
import TestSupport

/// `imserver` killed with SIGKILL while a client sends a burst: what it acknowledged survives
/// and is delivered exactly once after a restart, and its database stays sound.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ImserverCrashTests {
    static let total = 6000

    @Test func imserverKilledDuringABurstOfSendsDeliversEveryAcknowledgedMessageExactlyOnce() async throws {
        let directory = TemporaryDirectory()
        var server = try await ImserverProcess.start(dataDirectory: directory.path)
        // Bob's phone has logged in before and is away while alice sends.
        let bobBefore = try await login("bob", device: "phone-b", port: server.mqttPort)
        try await bobBefore.send(.disconnect(Disconnect()))
        #expect(await bobBefore.closed())

        let alice = try await login("alice", device: "phone-a", port: server.mqttPort)
        // Once a quarter of the burst is acknowledged, the server is killed while the rest pours
        // in; the last quarter waits for the kill, so that some is never acknowledged.
        let (quarterAcknowledged, arrived) = AsyncStream.makeStream(of: Void.self)
        let (killedStream, killed) = AsyncStream.makeStream(of: Void.self)
        let burst = Task {
            try? await send(Array(1...Self.total * 3 / 4), from: alice)
            for await _ in killedStream {}
            try? await send(Array(Self.total * 3 / 4 + 1...Self.total), from: alice)
        }
        let kill = Task { [server] in
            for await _ in quarterAcknowledged { break }
            defer { killed.finish() }
            return try await server.stop(SIGKILL)
        }
        var acknowledged: Set<UInt16> = []
        while let packet = await alice.next(within: .seconds(10)) {
            guard case .puback(let puback) = packet, puback.reasonCode == .success else {
                Issue.record("not a PUBACK 0x00: \(packet)")
                continue
            }
            acknowledged.insert(puback.packetIdentifier)
            if acknowledged.count == Self.total / 4 { arrived.finish() }
        }
        arrived.finish()
        await burst.value
        #expect(try await kill.value == .signaled(SIGKILL))
        #expect(!acknowledged.isEmpty && acknowledged.count < Self.total, "\(acknowledged.count) acknowledged before the kill")
        try await expectSoundDatabase(directory)
        // Each acknowledged message is in the file (others may be too: stored, not yet acknowledged).
        let file = directory.path + "/server.sqlite"
        let stored = Set(try await offPool { try SQLiteFiles.rows(file, "SELECT cid FROM message").map { $0[0] } })
        #expect(acknowledged.allSatisfy { stored.contains("c\($0)") })

        // Restarted on the same data, it takes alice's resends without storing any twice.
        server = try await ImserverProcess.start(dataDirectory: directory.path)
        let aliceAgain = try await login("alice", device: "phone-a", port: server.mqttPort)
        let resent = (1...UInt16(Self.total)).filter { !acknowledged.contains($0) }
        try await send(resent.map(Int.init), from: aliceAgain)
        var resentAcknowledged = 0
        while resentAcknowledged < resent.count, case .puback(let puback)? = await aliceAgain.next() {
            #expect(puback.reasonCode == .success)
            resentAcknowledged += 1
        }
        #expect(resentAcknowledged == resent.count)

        // Bob gets every message exactly once: the acknowledged ones and the resent ones.
        let bob = try await login("bob", device: "phone-b", port: server.mqttPort)
        var delivered: [String: Int] = [:]
        var uids: Set<String> = []
        while let packet = await bob.next(within: delivered.count < Self.total ? .seconds(10) : .milliseconds(500)) {
            guard case .publish(let publish) = packet, let message = try? TextMessage.decode(publish.payload),
                  let uid = publish.properties.userProperty(IMUserProperty.messageUID)
            else {
                Issue.record("not a delivery: \(packet)")
                continue
            }
            delivered[message.cid, default: 0] += 1
            uids.insert(uid)
            try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        }
        let missing = acknowledged.filter { delivered["c\($0)"] == nil }
        #expect(missing.isEmpty, "acknowledged before the kill but never delivered: \(missing.count)")
        #expect(delivered.count == Self.total && delivered.values.allSatisfy { $0 == 1 } && uids.count == Self.total)

        #expect(try await server.stop(SIGTERM) == .exited(0))
        try await expectSoundDatabase(directory)
    }

    /// A client of the development app logged in as `user` with its inbox subscribed.
    private func login(_ user: String, device: String, port: UInt16) async throws -> MQTTTestClient {
        let client = try await MQTTTestClient.open(port: port)
        let connack = try await client.login(appKey: ImserverProcess.appKey, token: try ImserverProcess.token(user), device: device)
        try #require(connack?.reasonCode == .success, "login of \(user): \(String(describing: connack))")
        #expect(try await client.subscribeInbox() == [.grantedQoS1])
        return client
    }

    /// Sends message `c<N>` to bob with packet id N for each N, without waiting for PUBACKs: a hundred
    /// to a write, a write every 5 ms, so that the server stores and acknowledges as they come.
    private func send(_ numbers: [Int], from client: MQTTTestClient) async throws {
        for chunk in stride(from: 0, to: numbers.count, by: 100).map({ numbers[$0..<min($0 + 100, numbers.count)] }) {
            try await Task.sleep(for: .milliseconds(5))
            try await client.connection.write(chunk.flatMap { number in
                Packet.publish(Publish(
                    topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: "message \(number)", cid: "c\(number)").encoded(),
                    qos: .atLeastOnce, packetIdentifier: UInt16(number),
                    properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType)])).encoded()
            })
        }
    }

    private func expectSoundDatabase(_ directory: TemporaryDirectory) async throws {
        let files = SQLiteFiles.all(under: directory.path)
        #expect(files == [directory.path + "/server.sqlite"])
        for file in files {
            #expect(try await offPool { try SQLiteFiles.integrityCheck(file) } == ["ok"], "\(file)")
        }
    }
}
