import IMProtocol
@testable import IMServer
import MQTT
import Testing
import TestSupport

/// Deliveries while messages are handed to connections as they are stored (no queue read for
/// a connection that has read its whole queue): nothing skipped, nothing twice, each source's
/// messages in order, whichever way they came in.
@Suite(.timeLimit(.minutes(1)))
struct BrokerDeliveryOrderTests {
    @Test func clientAndAPIMessagesInterleavedArriveOnceEachInTheirOrder() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        let count = 40
        let fromAPI = Task {
            for index in 0..<count {
                _ = try await server.backend.publish(appKey: TestServer.appKey, from: "system", to: ["bob"], text: "api \(index)")
            }
        }
        for index in 0..<count {
            #expect(try await alice.sendText("client \(index)", to: "bob", cid: "c\(index)", packetID: UInt16(index + 1)) == .success)
        }
        try await fromAPI.value
        var texts: [String] = []
        while texts.count < 2 * count, case .publish(let publish)? = await bob.next() {
            texts.append(try TextMessage.decode(publish.payload).text)
            try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        }
        #expect(texts.count == 2 * count)
        #expect(Set(texts).count == texts.count)
        #expect(texts.filter { $0.hasPrefix("client") } == (0..<count).map { "client \($0)" })
        #expect(texts.filter { $0.hasPrefix("api") } == (0..<count).map { "api \($0)" })
        #expect(await bob.next(within: .milliseconds(300)) == nil)
        await server.stop()
    }

    @Test func anAcknowledgedMessageIsNotSentAgainToAConnectionThatFollowsAtOnce() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        for index in 0..<5 {
            #expect(try await alice.sendText("m\(index)", to: "bob", cid: "c\(index)", packetID: UInt16(index + 1)) == .success)
        }
        for _ in 0..<5 {
            guard case .publish(let publish)? = await bob.next() else { Issue.record("a delivery is missing"); break }
            try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        }
        // The server answers PINGREQ after reading what came before it: it has the
        // acknowledgements, which may still wait for the lane's next commit. No pause.
        try await bob.send(.pingreq)
        #expect(await bob.next() == .pingresp)
        bob.close()
        let again = try await server.loggedIn("bob", device: "phone-b")
        #expect(await again.next(within: .milliseconds(500)) == nil)
        await server.stop()
    }

    @Test func aDeviceWhoseDeliveriesAreAllAcknowledgedLeavesNothingBehind() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await alice.sendText("hi", to: "bob", cid: "c1", packetID: 1) == .success)
        guard case .publish(let publish)? = await bob.next() else {
            Issue.record("no delivery")
            return await server.stop()
        }
        let core = server.server.core
        #expect(await server.server.onLoop { core.value.deliveries.unacknowledged.count } == 1)
        try await bob.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)))
        try await bob.send(.pingreq)
        #expect(await bob.next() == .pingresp)
        #expect(await server.server.onLoop { core.value.deliveries.unacknowledged.count } == 0)
        await server.stop()
    }
}
