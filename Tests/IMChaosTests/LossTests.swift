@testable import IMChaos
import Testing

/// Loss as TCP shows it: a lost chunk crosses a retransmission timeout late, the chunks after
/// it behind it, and which chunks are lost is drawn from the proxy's seed.
@Suite(.timeLimit(.minutes(1)))
struct LossTests {
    /// Sends `count` chunks one at a time, each once the one before has crossed; returns, for
    /// each, whether it crossed late (lost once).
    static func lateChunks(seed: UInt64, percent: Int, count: Int) async throws -> [Bool] {
        try await withChaos(seed: seed) { chaos in
            let (client, server) = try await chaos.connect()
            await chaos.proxy.set(.loss(percent: percent))
            var late: [Bool] = []
            for index in 0..<count {
                let sent = ContinuousClock.now
                try await client.send([UInt8(index)])
                _ = try await server.read(index + 1)
                let took = try #require(server.arrival(of: index + 1)) - sent
                // Lost: 200 ms; crossed: a loopback hop, far below 100 ms even on a busy machine.
                late.append(took >= .milliseconds(150))
                if took >= .milliseconds(150) { #expect(took >= LinkConditions.retransmissionTimeout, "chunk \(index) after \(took)") }
            }
            return late
        }
    }

    @Test func everyChunkIsLateAtAHundredPercentAndNoneAtZero() async throws {
        #expect(try await Self.lateChunks(seed: 1, percent: 100, count: 3) == [true, true, true])
        #expect(try await Self.lateChunks(seed: 1, percent: 0, count: 3) == [false, false, false])
    }

    @Test func theSameSeedLosesTheSameChunksAndAnotherSeedOthers() async throws {
        let first = try await Self.lateChunks(seed: 42, percent: 50, count: 12)
        let again = try await Self.lateChunks(seed: 42, percent: 50, count: 12)
        let other = try await Self.lateChunks(seed: 43, percent: 50, count: 12)
        #expect(first == again)
        #expect(first != other, "seeds 42 and 43 drew the same 12 losses: \(first)")
        #expect(first.contains(true) && first.contains(false), "\(first)")
    }

    @Test func aLossIsDescribedAndPassClearsIt() {
        var conditions = LinkConditions()
        conditions.apply(.loss(percent: 20))
        #expect(conditions.description == "loss 20" && Fault.loss(percent: 20).kind == .loss)
        conditions.apply(.pass)
        #expect(conditions.isPassing)
    }
}
