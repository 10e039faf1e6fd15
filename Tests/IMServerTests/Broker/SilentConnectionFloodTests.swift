import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// Thousands of connections that never send CONNECT: the server keeps serving others and
/// closes each once the connect timeout has passed.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct SilentConnectionFloodTests {
    static let count = 5000
    /// Long enough that opening them all and serving the others fits well within it on a busy machine.
    static let connectTimeout = Duration.seconds(5)

    @Test func fiveThousandSilentConnectionsAreClosedAfterTheConnectTimeoutWhileOthersAreServed() async throws {
        // Both ends of every connection live in this process.
        let limit = try ProcessLimits.raiseOpenFileLimit()
        try #require(limit >= 2 * Self.count + 500, "the open-file limit (\(limit)) is too low for \(Self.count) connections")
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.connectTimeout = Self.connectTimeout
        let server = try await TestServer.start(directory: directory, limits: limits)

        let sockets = SilentSockets()
        let port = server.port
        try await offPool { try sockets.open(Self.count, port: port, deadline: .now + .seconds(20)) }

        // Meanwhile a client logs in, sends and receives as usual.
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b")
        #expect(try await alice.sendText("through the crowd", to: "bob", cid: "c1", packetID: 1) == .success)
        guard case .publish(let delivery)? = await bob.next() else {
            Issue.record("bob got nothing")
            return
        }
        #expect(try TextMessage.decode(delivery.payload).text == "through the crowd")
        try await bob.send(.puback(PubAck(packetIdentifier: delivery.packetIdentifier)))
        #expect(try await offPool { try sockets.awaitClosing(timeout: .zero) } == Self.count, "all still open while the others were served")

        // Then the server closes every silent one, none before its time.
        let open = try await offPool { try sockets.awaitClosing(timeout: Self.connectTimeout + .seconds(15)) }
        #expect(open == 0, "\(open) connections not closed")
        let lifetimes = sockets.entries.compactMap { entry in entry.closedAt.map { $0 - entry.connectStartedAt } }
        #expect(lifetimes.count == Self.count && lifetimes.allSatisfy { $0 >= Self.connectTimeout })

        // And still serves.
        let carol = try await server.loggedIn("carol", device: "phone-c")
        try await carol.send(.pingreq)
        #expect(await carol.next() == .pingresp)
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)
        await server.stop()
    }
}
