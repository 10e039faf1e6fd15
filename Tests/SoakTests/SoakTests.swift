import IMChaos
import IMProcess
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 200 sessions exchange messages through the fault proxy (a random fault a second) with an
/// imserver process that is killed with SIGKILL and restarted every 20 s. Nothing the server
/// acknowledged may be lost or stored twice, every session must end connected, no process may
/// crash, and memory must stay flat. `IMSH_SOAK_SECONDS` sets the length (default 30 s).
@Suite(.timeLimit(.minutes(SoakSettings.timeLimitMinutes)))
struct SoakTests {
    @Test func everyAcknowledgedMessageIsStoredOnceAtItsReceiverThroughFaultsAndServerKills() async throws {
        let settings = SoakSettings.current
        print("soak: \(settings.sessions) sessions for \(settings.duration), seed \(settings.seed)"
            + " (IMSH_SOAK_SEED=\(settings.seed) draws the same faults and traffic)")
        let started = ContinuousClock.now
        let run = try await withTimeout(.seconds(120)) { try await SoakRun.start(settings) }
        print("soak: \(settings.sessions) sessions connected in \(ContinuousClock.now - started)")
        let outcome: SoakRun.Outcome
        do {
            outcome = try await withTimeout(settings.duration + settings.settleLimit + .seconds(60)) {
                try await run.runUnderFaults()
                return try await run.outcome()
            }
        } catch {
            await run.tearDown(keepFiles: true)
            throw error
        }
        // The last server stops gracefully: it too has not crashed.
        let lastStop = await run.currentServer?.stop()
        let state = run.state.withLock { $0 }
        let testMemory = state.memory.testProcessIsFlat(), serverMemory = state.memory.serverProblems(messagesKept: run.ledger.acknowledgedCount)
        report(run, outcome, state)

        #expect(state.crashes.isEmpty, "\(state.crashes)")
        #expect(lastStop == .exited(0))
        #expect(state.lives == 1 + settings.expectedKills)
        #expect(outcome.notConnected.isEmpty, "not connected: \(outcome.notConnected.prefix(10))")
        #expect(outcome.missing.isEmpty, "acknowledged, not at the receiver: \(outcome.missing.prefix(10))")
        #expect(outcome.duplicates.isEmpty, "\(outcome.duplicates.prefix(10))")
        #expect(run.ledger.unacknowledged.isEmpty, "never acknowledged: \(run.ledger.unacknowledged.prefix(10))")
        #expect(run.ledger.refused.isEmpty, "refused: \(run.ledger.refused.prefix(10))")
        #expect(run.ledger.sendErrors.isEmpty, "\(run.ledger.sendErrors.prefix(10))")
        // The run did what it claims: most of its messages and faults happened (a tick finds no
        // connection to hit while the server restarts).
        let seconds = Int(settings.duration.components.seconds)
        #expect(run.ledger.acknowledgedCount >= seconds * settings.messagesPerSecond / 2)
        #expect(run.tally.faultCount >= seconds * 3 / 4)
        if settings.isDedicated {
            #expect(testMemory.flat, "test process: \(testMemory.warm) KiB after warm-up, \(testMemory.late) KiB later")
        }
        #expect(state.memory.serverLives.count == 1 + settings.expectedKills, "the server's memory was not sampled in each life")
        #expect(serverMemory.isEmpty, "server: \(serverMemory)")

        let passed = state.crashes.isEmpty && outcome.isSettled && outcome.duplicates.isEmpty
            && (testMemory.flat || !settings.isDedicated) && serverMemory.isEmpty && run.ledger.unacknowledged.isEmpty
        await run.tearDown(keepFiles: !passed)
    }

    private func report(_ run: SoakRun, _ outcome: SoakRun.Outcome, _ state: SoakRun.State) {
        let memory = state.memory
        print("soak: \(run.ledger.sentCount) messages sent, \(run.ledger.acknowledgedCount) acknowledged, "
            + "\(outcome.delivered) stored at their receivers (\(outcome.missing.count) missing, "
            + "\(outcome.duplicates.count) twice); \(run.tally.faultCount) faults (\(run.tally.summary)); "
            + "\(state.lives - 1) server kills")
        print("soak: test process VmRSS (MiB) every \(run.settings.sampleInterval): "
            + memory.samples.map { ResidentMemory.mebibytes($0.test) }.joined(separator: " "))
        print("soak: server RssAnon (MiB) every \(run.settings.sampleInterval), by life: "
            + memory.samples.map { sample in sample.server.map { "\(sample.serverLife):\(ResidentMemory.mebibytes($0.anonymous))" } ?? "-" }
                .joined(separator: " "))
        print("soak: server VmRSS/RssAnon (MiB) before each kill and at the end: "
            + memory.serverLives.map { "\(ResidentMemory.mebibytes($0.resident))/\(ResidentMemory.mebibytes($0.anonymous))" }
                .joined(separator: " "))
    }
}
