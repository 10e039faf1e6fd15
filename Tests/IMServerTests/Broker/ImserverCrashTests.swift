import Glibc
import IMProtocol
import MQTT
import Testing
import TestSupport

/// `imserver` killed with SIGKILL while a client sends a burst: what it acknowledged survives
/// and is delivered exactly once after a restart, and its database stays sound.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ImserverCrashTests {
    static let total = 3000

    @Test func imserverKilledDuringABurstOfSendsDeliversEveryAcknowledgedMessageExactlyOnce() async throws {
        let directory = StoreTemporaryDirectory()
        var server = try await ImserverProcess.start(dataDirectory: directory.path)
        // Bob's phone has logged in before and is away while alice sends.
        let bobBefore = try await login("bob", device: "phone-b", port: server.mqttPort)
        try await bobBefore.send(.disconnect(Disconnect()))
        #expect(await bobBefore.closed())

        let alice = try await login("alice", device: "phone-a", port: server.mqttPort)
        // Half-way through the burst, once PUBACKs are coming back, the server is killed.
        let (firstAcknowledgements, arrived) = AsyncStream.makeStream(of: Void.self)
        let burst = Task { [server] in
            try await send(Array(1...Self.total / 2), from: alice)
            for await _ in firstAcknowledgements { break }
            let termination = try await server.stop(SIGKILL)
            try? await send(Array(Self.total / 2 + 1...Self.total), from: alice)
            return termination
        }
        var acknowledged: Set<UInt16> = []
        while let packet = await alice.next(within: .seconds(10)) {
            guard case .puback(let puback) = packet, puback.reasonCode == .success else {
                Issue.record("not a PUBACK 0x00: \(packet)")
                continue
            }
            acknowledged.insert(puback.packetIdentifier)
            if acknowledged.count == 100 { arrived.finish() }
        }
        arrived.finish()
        #expect(try await burst.value == .signaled(SIGKILL))
        #expect(acknowledged.count >= 100 && acknowledged.count <= Self.total / 2, "\(acknowledged.count) acknowledged before the kill")
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

    /// Sends message `c<N>` to bob with packet id N for each N, without waiting for PUBACKs.
    private func send(_ numbers: [Int], from client: MQTTTestClient) async throws {
        for number in numbers {
            try await client.send(.publish(Publish(
                topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: "message \(number)", cid: "c\(number)").encoded(),
                qos: .atLeastOnce, packetIdentifier: UInt16(number),
                properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType)])))
        }
    }

    private func expectSoundDatabase(_ directory: StoreTemporaryDirectory) async throws {
        let files = SQLiteFiles.all(under: directory.path)
        #expect(files == [directory.path + "/server.sqlite"])
        for file in files {
            #expect(try await offPool { try SQLiteFiles.integrityCheck(file) } == ["ok"], "\(file)")
        }
    }
}
