import IMChaos
import Testing

/// A black hole: nothing crosses, nothing closes; what was held crosses when it lifts.
@Suite(.timeLimit(.minutes(1)))
struct BlackholeTests {
    @Test func heldBytesCrossInOrderWhenTheBlackHoleLifts() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.blackhole, into: ProxyConnectionID(1)))
            try await client.send([1, 2])
            try await server.send([7])
            try await client.send([3])
            #expect(await server.staysSilent(for: .milliseconds(300)))
            #expect(await client.staysSilent(for: .zero))
            #expect(await chaos.proxy.connections().first?.heldBytes == 4)

            #expect(await chaos.proxy.inject(.pass, into: ProxyConnectionID(1)))
            #expect(try await server.read(3) == [1, 2, 3])
            #expect(try await client.read(1) == [7])
        }
    }

    @Test func aConnectionOpenedIntoABlackHoleReachesTheServerOnlyWhenItLifts() async throws {
        try await withChaos { chaos in
            await chaos.proxy.set(.blackhole)
            let client = try await chaos.dial(chaos.proxy.port)
            try await client.send([1])
            try await Task.sleep(for: .milliseconds(300))
            #expect(chaos.targetAcceptedCount == 0)
            #expect(await chaos.proxy.connections().first?.upstream == ProxyConnectionInfo.Upstream.none)

            await chaos.proxy.set(.pass)
            let server = try await chaos.nextAccepted()
            #expect(try await server.read(1) == [1])
        }
    }

    @Test func aSideThatClosedInTheBlackHoleIsGoneForGood() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            await chaos.proxy.set(.blackhole)
            try await client.send([1, 2, 3])
            try await Task.sleep(for: .milliseconds(100))
            client.close(.abortive)
            #expect(await server.staysSilent(for: .milliseconds(300)))

            await chaos.proxy.set(.pass)
            let end = try await server.readToEnd()
            #expect(end.bytes.isEmpty && end.ending == .connectionReset)
            #expect(await chaos.proxy.openCount() == 0)
        }
    }

    @Test func aPairWhoseBothSidesClosedInTheBlackHoleIsForgotten() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            await chaos.proxy.set(.blackhole)
            client.close(.abortive)
            server.close(.abortive)
            #expect(try await eventually { await chaos.proxy.openCount() == 0 })
        }
    }
}
