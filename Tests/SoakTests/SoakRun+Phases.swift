import IMChaos
import IMEngine
#if canImport(Glibc)
import Glibc
#endif

extension SoakRun {
    /// Messages flow for the run's duration while the proxy injects random faults and the
    /// server is killed and restarted; then the faults stop.
    func runUnderFaults() async throws {
        // Subscribed before the first message, so that no PUBACK goes unseen.
        var streams: [AsyncStream<SendReport>] = []
        for session in sessions { streams.append(await session.sendReports()) }
        let reports = streams.map { stream in
            Task { [ledger] in for await report in stream { ledger.report(report) } }
        }
        defer { reports.forEach { $0.cancel() } }
        let start = ContinuousClock.now
        let end = start + settings.duration
        await proxy.startRandomFaults(RandomFaults(seed: settings.seed, every: settings.faultInterval))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.sendMessages(until: end) }
            group.addTask { try await self.killServers(from: start, until: end) }
            group.addTask { try await self.sampleMemory(from: start, until: end) }
            try await group.waitForAll()
        }
        await proxy.stopRandomFaults()
        await proxy.set(.pass)
        if let memory = currentServer?.memory { state.withLock { $0.memory.serverLives.append(memory) } }
        // Within this function: the report listeners must see the PUBACKs of settling too.
        let healed = ContinuousClock.now
        var connected = 0
        for session in sessions where await session.status == .connected { connected += 1 }
        try await settle()
        print("soak: \(connected) of \(sessions.count) sessions connected when the faults stopped; "
            + "all back, acknowledged and delivered \(ContinuousClock.now - healed) later")
    }

    /// Sends `messagesPerSecond` messages a second, each from a random session to another user.
    private func sendMessages(until end: ContinuousClock.Instant) async throws {
        var generator = SeededGenerator(seed: settings.seed)
        let interval = Duration.seconds(1) / settings.messagesPerSecond
        var next = ContinuousClock.now
        var number = 0
        while next < end {
            let from = Int(generator.next() % UInt64(sessions.count))
            let to = (from + 1 + Int(generator.next() % UInt64(sessions.count - 1))) % sessions.count
            number += 1
            do {
                let message = try await sessions[from].send(text: "soak \(number)", to: users[to])
                if let cid = message.cid { ledger.sent(.init(from: users[from], to: users[to], cid: cid)) }
            } catch {
                ledger.sendFailed("\(users[from]) → \(users[to]): \(error)")
            }
            next += interval
            try await Task.sleep(until: next)
        }
    }

    /// Every `restartInterval`: checks that the server still runs (else it crashed), kills it
    /// with SIGKILL, starts it again on the same data directory and points the proxy at it.
    private func killServers(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async throws {
        var next = start + settings.restartInterval
        while next < end {
            try await Task.sleep(until: next)
            next += settings.restartInterval
            guard let server = currentServer else { continue }
            let life = state.withLock { $0.lives } - 1
            if server.isRunning {
                let memory = server.memory
                let termination = await server.kill()
                state.withLock { state in
                    if let memory { state.memory.serverLives.append(memory) }
                    if termination != .signaled(SIGKILL) {
                        state.crashes.append("imserver life \(life) ended with \(termination) before SIGKILL")
                    }
                }
            } else {
                state.withLock { $0.crashes.append("imserver life \(life) died on its own: \(ServerProcess.tail(of: server.logPath))") }
            }
            let restarted = try await ServerProcess.start(dataDirectory: directory + "/server", life: life + 1)
            state.withLock {
                $0.server = restarted
                $0.lives += 1
            }
            await proxy.retarget(port: restarted.mqttPort)
        }
    }

    /// Samples resident memory of this process and of the server running then.
    private func sampleMemory(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async throws {
        var next = start + settings.sampleInterval
        while next <= end {
            try await Task.sleep(until: next)
            let (server, life) = state.withLock { ($0.server, $0.lives - 1) }
            let sample = ResidentMemory.Sample(
                test: ResidentMemory.status()?.resident ?? 0, server: server?.memory, serverLife: life)
            state.withLock { $0.memory.samples.append(sample) }
            next += settings.sampleInterval
        }
    }
}
