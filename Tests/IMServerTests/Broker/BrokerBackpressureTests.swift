import IMProtocol
import IMStore
import MQTT
import Testing
import TestSupport
@testable import IMServer

/// A client that sends faster than the server stores is read no further once
/// `Publishing.waitingLimit` of its messages wait: what waits in memory stays bounded (Receive
/// Maximum would bound QoS 1 only), and TCP slows the sender.
///
/// SQLite's store, held locked by another connection here; the broker's side is the same with
/// PostgreSQL's, whose round trips are what make a fast sender wait.
@Suite(.timeLimit(.minutes(1)), .disabled(if: TestPostgresDatabase.isConfigured, "a lock on the SQLite file"))
struct BrokerBackpressureTests {
    @Test func aSenderAheadOfTheStoreIsReadNoFurtherUntilTheStoreCatchesUp() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let holder = try Database(path: directory.path + "/" + SQLiteServerStore.fileName)
        try holder.executeScript("BEGIN IMMEDIATE")

        let count = 2 * Publishing.waitingLimit.count
        try await alice.connection.write(Self.messages(count) + Packet.pingreq.encoded())
        // The PINGREQ behind the messages is not read while they wait for the store.
        #expect(await alice.next(within: .milliseconds(500)) == nil)
        let (waiting, heldBack) = try await waitingPublishes(server)
        #expect(heldBack && waiting <= Publishing.waitingLimit.count, "\(waiting) waiting, held back: \(heldBack)")

        try holder.executeScript("COMMIT")
        holder.close()
        // Every message is stored and acknowledged in order; the PINGREQ, read once the
        // messages before it were taken into a batch, is answered at once, among the PUBACKs.
        var acknowledged: [UInt16] = []
        var answeredPing = false
        while acknowledged.count < count || !answeredPing, let packet = await alice.next() {
            switch packet {
            case .puback(let puback):
                #expect(puback.reasonCode == .success)
                acknowledged.append(puback.packetIdentifier)
            case .pingresp:
                answeredPing = true
            default:
                Issue.record("unexpected \(packet)")
            }
        }
        #expect(acknowledged == Array(1...UInt16(count)))
        #expect(answeredPing)
        await server.stop()
    }

    /// Held back longer than its Keep Alive allows, a client is not taken for silent: the wait is the server's.
    @Test func aClientHeldBackOutlastsItsKeepAlive() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await MQTTTestClient.open(port: server.port)
        let connack = try await alice.login(appKey: TestServer.appKey, token: try await server.token("alice"), device: "phone-a", keepAlive: 1)
        #expect(connack?.reasonCode == .success)
        let holder = try Database(path: directory.path + "/" + SQLiteServerStore.fileName)
        try holder.executeScript("BEGIN IMMEDIATE")
        let count = 2 * Publishing.waitingLimit.count
        try await alice.connection.write(Self.messages(count))
        // Past 1.5 times the Keep Alive, well within the lane's patience with a lock (5 s).
        try await Task.sleep(for: .milliseconds(2_000))
        #expect(try await waitingPublishes(server).1, "the client was not held back")
        try holder.executeScript("COMMIT")
        holder.close()
        var acknowledged = 0
        while acknowledged < count, case .puback? = await alice.next() { acknowledged += 1 }
        #expect(acknowledged == count)
        await server.stop()
    }

    /// `count` QoS 1 text messages to bob, packet identifiers from 1, as one run of bytes.
    private static func messages(_ count: Int) -> [UInt8] {
        (1...count).flatMap { index in
            Packet.publish(Publish(
                topic: IMTopic.send(to: "bob").name, payload: TextMessage(text: "m\(index)", cid: "c\(index)").encoded(),
                qos: .atLeastOnce, packetIdentifier: UInt16(index))).encoded()
        }
    }

    /// How many PUBLISHes of the server's one client wait behind the batch being stored, and
    /// whether its reading is held back.
    private func waitingPublishes(_ server: TestServer) async throws -> (Int, Bool) {
        let core = server.server.core
        let seen: (Int, Bool)? = await withCheckedContinuation { continuation in
            let queued = server.server.loop.execute {
                let broker = core.value.connections.values.first { $0.login != nil }
                continuation.resume(returning: broker.map { ($0.publishes.waiting.count, $0.heldBack) })
            }
            if !queued { continuation.resume(returning: nil) }
        }
        guard let seen else { throw TestFailure("no client on the server, or its loop is gone") }
        return seen
    }
}
