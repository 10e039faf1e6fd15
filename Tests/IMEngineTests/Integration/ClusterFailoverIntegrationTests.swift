import IMEngine
import IMProtocol
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Two imserver processes on one PostgreSQL, SIGKILLed in turn while a session sends: the
/// sessions move to the other node from their server lists by themselves, the killed node
/// comes back and takes them again, and every message is stored once at both ends.
@Suite(.timeLimit(.minutes(3)))
struct ClusterFailoverIntegrationTests {
    @Test func messagesSurviveTheKillOfEitherNodeExactlyOnce() async throws {
        let directory = TemporaryDirectory()
        let postgres = try await StockPostgres.start(directory: directory.path)
        defer { postgres.stop() }
        let storeURL = try postgres.createDatabase("imserver")
        let nodes = Mutex([
            try await ImserverProcess.start(storeURL: storeURL, nodeName: "node-1"),
            try await ImserverProcess.start(storeURL: storeURL, nodeName: "node-2"),
        ])
        func address(_ index: Int) -> ServerAddress {
            ServerAddress(host: "127.0.0.1", port: nodes.withLock { $0[index].mqttPort })
        }
        // Alice prefers node 1, bob node 2: messages cross nodes until a kill puts both on one.
        let (aliceFiles, bobFiles) = (TemporaryDirectory(), TemporaryDirectory())
        let alice = try engine(servers: [address(0), address(1)], directory: aliceFiles)
        let bob = try engine(servers: [address(1), address(0)], directory: bobFiles)
        let sender = alice.makeSession(ConnectParameters(token: try ImserverProcess.token("alice"), deviceID: "phone-alice", heartbeat: 30))
        let receiver = bob.makeSession(ConnectParameters(token: try ImserverProcess.token("bob"), deviceID: "phone-bob", heartbeat: 30))
        let received = await receiver.receivedMessages()
        _ = try await sender.connect()
        _ = try await receiver.connect()

        let total = 150
        let sent = Atomic<Int>(0)
        let kills = Task {
            // Node 1 dies, then restarts on its port; later node 2 dies and everyone is on node 1.
            while sent.load(ordering: .relaxed) < 50 { try await Task.sleep(for: .milliseconds(2)) }
            let first = nodes.withLock { $0[0] }
            _ = try await first.stop(SIGKILL)
            let restarted = try await ImserverProcess.start(storeURL: storeURL, nodeName: "node-1", port: first.mqttPort)
            nodes.withLock { $0[0] = restarted }
            while sent.load(ordering: .relaxed) < 100 { try await Task.sleep(for: .milliseconds(2)) }
            let second = nodes.withLock { $0[1] }
            _ = try await second.stop(SIGKILL)
        }
        for number in 0..<total {
            _ = try await sender.send(text: "message \(number)", to: "bob")
            sent.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(10))
        }
        try await kills.value

        var announced = 0
        for await _ in received {
            announced += 1
            if announced == total { break }
        }
        #expect(announced == total)
        #expect(await eventually(within: .seconds(30)) { (try? await sender.pendingOutgoing().isEmpty) == true })
        let stored = try await receiver.history(peer: "alice", limit: 10 * total)
        #expect(stored.count == total)
        #expect(Set(stored.compactMap(\.uid)).count == total)
        #expect(Set(stored.map(\.text)) == Set((0..<total).map { "message \($0)" }))
        let outgoing = try await sender.history(peer: "bob", limit: 10 * total)
        #expect(outgoing.count == total && outgoing.allSatisfy { $0.state == .sent })
        // Each lost its node once and came back on another (alice may find node 1 restarted already).
        let (aliceStatuses, bobStatuses) = (await sender.statuses, await receiver.statuses)
        #expect(aliceStatuses.filter { $0 == .connected }.count >= 2, "alice: \(aliceStatuses)")
        #expect(bobStatuses.filter { $0 == .connected }.count >= 2, "bob: \(bobStatuses)")
        await alice.shutdown()
        await bob.shutdown()
        let running = nodes.withLock { $0 }
        for node in running { _ = try? await node.stop(SIGTERM) }
    }

    private func engine(servers: [ServerAddress], directory: TemporaryDirectory) throws -> SessionEngine {
        try SessionEngine(EngineConfiguration(
            appKey: ImserverProcess.appKey, servers: servers, dataDirectory: directory.path, callbacks: .immediate,
            networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: .seconds(3), tokenFetchTimeout: .seconds(5)))
    }
}
