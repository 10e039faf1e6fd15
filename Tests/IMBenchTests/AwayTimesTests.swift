@testable import IMBench
import IMEngine
import Testing

/// How long sessions were away (`imsh bench messages`' away figure): each absence runs from a
/// session leaving `connected` to its being `connected` again.
@Suite(.timeLimit(.minutes(2)))
struct AwayTimesTests {
    @Test func eachAbsenceRunsFromLeavingConnectedToConnectedAgain() {
        let watch = ConnectionWatch(connectedSessions: 3)
        let start = ContinuousClock.now
        let at = { (milliseconds: Int) in start + .milliseconds(milliseconds) }
        watch.changed(0, to: .connecting, at: at(100))
        watch.changed(0, to: .connected, at: at(400))
        watch.changed(1, to: .connecting, at: at(200))
        // A second status away from connected does not start the absence over.
        watch.changed(1, to: .unconnected, at: at(700))
        watch.changed(1, to: .connected, at: at(1200))
        watch.changed(0, to: .connecting, at: at(2000))
        watch.changed(0, to: .connected, at: at(2100))
        watch.changed(2, to: .connecting, at: at(3000))
        let away = AwayTimes(watch.snapshot)
        #expect(away.durations == [300, 1000, 100].map { Duration.milliseconds($0) })
        #expect(away.sessions == 3 && away.stillAway == 1 && away.interruptions == 4)
        #expect(away.line == "away         4 interruptions of 3 sessions: median 300.000 ms, max 1000.000 ms, 1 still away at the end")
        #expect(away.json.objectValue?["medianMs"] == .double(300) && away.json.objectValue?["maxMs"] == .double(1000))
        #expect(AwayTimes().line == "away         no session left connected" && AwayTimes().json.objectValue?["maxMs"] == .null)
    }

    /// The embedded server stopped (DISCONNECT 0x8B) and started again on its port: every
    /// session shows one absence, at least as long as the server was down.
    @Test func aSessionAServerRestartSentAwayShowsUpWithItsAwayTime() async throws {
        let down = Duration.milliseconds(300)
        let away = try await BenchStage.run(CommonOptions(), sessions: 2, progress: ProgressLine(mode: .silent)) { stage throws(BenchError) in
            let fleet = try await stage.fleet(try await stage.users("away", count: 2))
            try await MessagesBench.requireAll(await stage.connect(fleet).snapshot, of: fleet)
            let watch = ConnectionWatch(connectedSessions: 2)
            watch.watch(fleet.sessions, on: fleet.engine.hub)
            try await stage.server.takeDown()
            try? await Task.sleep(for: down)
            try await stage.server.bringBack()
            let deadline = ContinuousClock.now + .seconds(30)
            while watch.snapshot.away.count < 2, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            watch.stop()
            await fleet.shutdown()
            return AwayTimes(watch.snapshot)
        }
        #expect(away.interruptions == 2 && away.sessions == 2 && away.stillAway == 0, "\(away)")
        #expect(away.durations.allSatisfy { $0 >= down }, "\(away.durations)")
    }
}
