import IMChaos
import IMTransport
import Testing

/// Without faults the proxy is a plain TCP relay; faults go where they are sent.
@Suite(.timeLimit(.minutes(1)))
struct ForwardingTests {
    @Test func bytesCrossBothWaysIntactAndACloseCrossesAfterThem() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            let up = TestPackets.bytes(200_000)
            let down = TestPackets.bytes(70_000, seed: 7)
            try await client.send(up)
            try await server.send(down)
            #expect(try await server.read(up.count) == up)
            #expect(try await client.read(down.count) == down)

            try await client.send(TestPackets.pingRequest)
            client.close()
            let end = try await server.readToEnd()
            #expect(end.bytes == up + TestPackets.pingRequest)
            #expect(end.ending == .closedByPeer)
            #expect(try await eventually { await chaos.proxy.openCount() == 0 })
            #expect(chaos.events.all.isEmpty)
        }
    }

    @Test func aFaultOnOneConnectionLeavesTheOthersAlone() async throws {
        try await withChaos { chaos in
            let (client1, server1) = try await chaos.connect()
            let (client2, server2) = try await chaos.connect()
            let ids = await chaos.proxy.connections().map(\.id)
            #expect(ids == [ProxyConnectionID(1), ProxyConnectionID(2)])

            #expect(await chaos.proxy.inject(.blackhole, into: ProxyConnectionID(1)))
            #expect(await !chaos.proxy.inject(.close, into: ProxyConnectionID(99)))
            try await client1.send([1, 2, 3])
            try await client2.send([4, 5, 6])
            #expect(try await server2.read(3) == [4, 5, 6])
            #expect(await server1.staysSilent(for: .milliseconds(300)))
            #expect(chaos.events.faults == [FaultEvent(connection: ProxyConnectionID(1), fault: .blackhole, origin: .command)])
            let listed = await chaos.proxy.connections()
            #expect(listed.map(\.conditions.isBlackholed) == [true, false])
            #expect(listed.first?.heldBytes == 3)
        }
    }

    @Test func aFaultForAllReachesConnectionsOpenedLaterUntilPass() async throws {
        try await withChaos { chaos in
            await chaos.proxy.set(.delay(.milliseconds(300)))
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.connections().first?.conditions.delay == .milliseconds(300))
            let sent = ContinuousClock.now
            try await client.send([9])
            #expect(try await server.read(1) == [9])
            #expect(try #require(server.arrival(of: 1)) - sent >= .milliseconds(300))

            await chaos.proxy.set(.pass)
            let (_, _) = try await chaos.connect()
            #expect(await chaos.proxy.connections().allSatisfy(\.conditions.isPassing))
            #expect(chaos.events.faults.map(\.connection) == [nil, nil])
        }
    }

    @Test func retargetingSendsNewConnectionsToTheNewServer() async throws {
        try await withChaos { chaos in
            try await withChaos { other in
                await chaos.proxy.retarget(port: other.target.localAddress.port)
                let client = try await chaos.dial(chaos.proxy.port)
                let server = try await other.nextAccepted()
                try await client.send([42])
                #expect(try await server.read(1) == [42])
                #expect(chaos.targetAcceptedCount == 0)
            }
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `limit` passes.
func eventually(within limit: Duration = .seconds(5), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}
