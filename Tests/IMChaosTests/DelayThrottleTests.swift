import IMChaos
import Testing

/// Slow networks: every chunk late by a fixed time, or a byte rate.
@Suite(.timeLimit(.minutes(1)))
struct DelayThrottleTests {
    @Test func aDelayHoldsEachChunkThatLongAndKeepsTheirOrder() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.delay(.milliseconds(250)), into: ProxyConnectionID(1)))
            var sent: [ContinuousClock.Instant] = []
            for index in 0..<3 {
                sent.append(.now)
                try await client.send(TestPackets.bytes(10, seed: index * 10))
                try await Task.sleep(for: .milliseconds(60))
            }
            #expect(try await server.read(30) == TestPackets.bytes(30))
            for (index, time) in sent.enumerated() {
                let arrived = try #require(server.arrival(of: (index + 1) * 10))
                #expect(arrived - time >= .milliseconds(250), "chunk \(index) after \(arrived - time)")
            }
            // The other way too.
            let back = ContinuousClock.now
            try await server.send([1])
            #expect(try await client.read(1) == [1])
            #expect(try #require(client.arrival(of: 1)) - back >= .milliseconds(250))
        }
    }

    @Test func aCloseCrossesAfterTheDelayedBytes() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            await chaos.proxy.set(.delay(.milliseconds(200)))
            try await client.send([1, 2, 3])
            client.close()
            let end = try await server.readToEnd()
            #expect(end.bytes == [1, 2, 3] && end.ending == .closedByPeer)
        }
    }

    @Test func aThrottleLetsThroughAtMostItsRate() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            #expect(await chaos.proxy.inject(.throttle(bytesPerSecond: 4_000), into: ProxyConnectionID(1)))
            let payload = TestPackets.bytes(6_000)
            let start = ContinuousClock.now
            try await client.send(payload)
            #expect(try await server.read(payload.count) == payload)
            // 6,000 bytes at 4,000 B/s: 1.5 s, less the first piece (200 bytes) at most.
            let took = try #require(server.arrival(of: payload.count)) - start
            #expect(took >= .milliseconds(1_400), "took \(took)")
            // Bytes arrive spread out, not in one burst at the end.
            let half = try #require(server.arrival(of: 3_000)) - start
            #expect(half < took - .milliseconds(400), "half after \(half), all after \(took)")
            #expect(chaos.events.faults.map(\.fault) == [.throttle(bytesPerSecond: 4_000)])
        }
    }

    @Test func passLiftsDelayAndThrottleAndReleasesWhatWaits() async throws {
        try await withChaos { chaos in
            let (client, server) = try await chaos.connect()
            await chaos.proxy.set(.delay(.seconds(30)))
            try await client.send([5, 6])
            #expect(await server.staysSilent(for: .milliseconds(200)))
            await chaos.proxy.set(.pass)
            #expect(try await server.read(2, within: .seconds(2)) == [5, 6])
        }
    }
    /// Whole milliseconds exactly, also where a division through Double lands just under one
    /// (295,149 ms came out 295,148 that way).
    @Test func aDelayIsCountedInExactMilliseconds() {
        for milliseconds: Int64 in [0, 1, 250, 295_149, 2_365_000, 86_400_000] {
            #expect(Fault.delay(.milliseconds(milliseconds)).delayMilliseconds == milliseconds)
        }
        #expect(Fault.delay(.microseconds(1_999)).delayMilliseconds == 1)
    }
}
