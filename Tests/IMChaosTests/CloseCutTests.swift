import IMChaos
import IMTransport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Faults that end a connection: a reset, and a cut inside an MQTT packet.
@Suite(.timeLimit(.minutes(1)))
struct CloseCutTests {
    @Test func closeResetsBothSides() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.close, into: ProxyConnectionID(1)))
            #expect(try await client.readToEnd().ending == .connectionReset)
            #expect(try await server.readToEnd().ending == .connectionReset)
            #expect(await chaos.proxy.openCount() == 0)
        }
    }

    @Test func closeForAllResetsNewConnectionsUntilPass() async throws {
        try await withChaos { chaos in
            await chaos.proxy.set(.close)
            do {
                let refused = try await chaos.dial(chaos.proxy.port)
                #expect(try await refused.readToEnd().ending == .connectionReset)
            } catch TransportError.connectFailed(_, _, let error) {
                // The reset may reach us before the connect attempt has seen the connection.
                #expect(error.code == ECONNRESET)
            }
            await chaos.proxy.set(.pass)
            let (client, server) = try await chaos.connect()
            try await client.send([1])
            #expect(try await server.read(1) == [1])
        }
    }

    @Test func aCutForwardsHalfTheNextPacketThenClosesAndIsReported() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            let first = TestPackets.publish(length: 40)
            let second = TestPackets.publish(length: 100, seed: 1)
            // Arm the cut in the middle of the first packet: it lands in the second.
            try await client.send(Array(first.prefix(15)))
            #expect(try await server.read(15) == Array(first.prefix(15)))
            #expect(await chaos.proxy.inject(.cut, into: ProxyConnectionID(1)))
            try await client.send(Array(first.dropFirst(15)) + second + TestPackets.pingRequest)

            let end = try await server.readToEnd()
            #expect(end.bytes == first + Array(second.prefix(50)))
            #expect(end.ending == .closedByPeer)
            #expect(try await client.readToEnd().ending == .connectionReset)
            #expect(chaos.events.cuts == [
                CutEvent(connection: ProxyConnectionID(1), towardServer: true, packet: "PUBLISH", forwarded: 50, length: 100),
            ])
            #expect(chaos.events.all.map(\.description) == [
                "fault 1 cut (command)", "cut 1 PUBLISH to server after 50 of 100 bytes",
            ])
        }
    }

    @Test func aCutTakesThePacketThatComesFirstEitherWay() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.cut, into: ProxyConnectionID(1)))
            try await server.send(TestPackets.pingRequest)
            let end = try await client.readToEnd()
            #expect(end.bytes == [0xC0] && end.ending == .closedByPeer)
            #expect(chaos.events.cuts.first?.description == "cut 1 PINGREQ to client after 1 of 2 bytes")
        }
    }

    @Test func aCutWaitsAcrossChunksForThePacketToReachItsMiddle() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.cut, into: ProxyConnectionID(1)))
            let packet = TestPackets.publish(length: 1_000)
            for offset in stride(from: 0, to: 400, by: 100) {
                try await client.send(Array(packet[offset..<offset + 100]))
                #expect(try await server.read(offset + 100) == Array(packet.prefix(offset + 100)))
            }
            try await client.send(Array(packet[400...]))
            let end = try await server.readToEnd()
            #expect(end.bytes == Array(packet.prefix(500)) && end.ending == .closedByPeer)
        }
    }
}
