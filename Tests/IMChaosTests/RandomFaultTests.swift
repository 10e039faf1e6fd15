import IMChaos
import Testing

/// Random faults: drawn from a seed, so a run can be repeated.
@Suite(.timeLimit(.minutes(1)))
struct RandomFaultTests {
    @Test func theSameSeedDrawsTheSameFaultsAndAnotherSeedOthers() {
        let plan = RandomFaults(seed: 42)
        var first = FaultPlanner(plan), second = FaultPlanner(plan)
        var other = FaultPlanner(RandomFaults(seed: 43))
        let draws = (0..<50).map { _ in first.next() }
        #expect(draws == (0..<50).map { _ in second.next() })
        #expect(draws != (0..<50).map { _ in other.next() })
        // Every kind of the plan comes up, with parameters in the plan's ranges.
        #expect(Set(draws.map(\.fault.kind)) == Set(plan.kinds))
        for draw in draws {
            if case .delay(let delay) = draw.fault { #expect(delay >= .milliseconds(20) && delay <= .milliseconds(500)) }
            if case .throttle(let rate) = draw.fault { #expect(plan.rates.contains(rate)) }
        }
    }

    @Test func aDrawPicksAmongTheOpenConnectionsInIdOrder() {
        let draw = FaultPlanner.Draw(fault: .close, pick: 7)
        let open = [5, 2, 9].map(ProxyConnectionID.init)
        #expect(draw.target(among: open) == ProxyConnectionID(5))  // 7 % 3 = 1: the second lowest
        #expect(draw.target(among: []) == nil)
    }

    @Test func randomFaultsHitOpenConnectionsAndAreReportedWithTheirIds() async throws {
        try await withChaos { chaos in
            let (client, _) = try await chaos.connect()
            await chaos.proxy.startRandomFaults(RandomFaults(seed: 1, every: .milliseconds(50), kinds: [.close]))
            #expect(try await client.readToEnd().ending == .connectionReset)
            await chaos.proxy.stopRandomFaults()
            let faults = chaos.events.faults
            #expect(faults.first == FaultEvent(connection: ProxyConnectionID(1), fault: .close, origin: .random))
        }
    }

    /// Two proxies with the same seed and the same connections inject the same faults into the
    /// same connection ids.
    @Test func aSeededRunRepeats() async throws {
        let plan = RandomFaults(seed: 2_026, every: .milliseconds(40), kinds: [.delay, .throttle, .blackhole, .pass])
        var runs: [[FaultEvent]] = []
        for _ in 0..<2 {
            runs.append(try await withChaos { chaos in
                var peers: [Peer] = []
                for _ in 0..<3 { peers.append(try await chaos.connect().client) }
                await chaos.proxy.startRandomFaults(plan)
                #expect(try await eventually { chaos.events.faults.count >= 8 })
                await chaos.proxy.stopRandomFaults()
                #expect(peers.count == 3)
                return Array(chaos.events.faults.prefix(8))
            })
        }
        #expect(runs[0].count == 8)
        #expect(runs[0] == runs[1])
        #expect(Set(runs[0].compactMap(\.connection)).isSubset(of: [1, 2, 3].map(ProxyConnectionID.init)))
        #expect(runs[0].allSatisfy { $0.origin == .random })
    }
}
