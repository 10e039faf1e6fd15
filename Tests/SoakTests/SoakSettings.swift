import Foundation

/// What one soak run does, from the environment.
///
/// `IMSH_SOAK_SECONDS`: how long messages flow under faults (CI: 180; unset: 30, so that a plain
/// `swift test` runs a short soak). `IMSH_SOAK_SEED`: the seed of the faults and the traffic
/// (unset: drawn, and printed so that a run's faults can be drawn again).
struct SoakSettings: Sendable {
    var duration: Duration
    var seed: UInt64
    var sessions = 200
    /// Messages sent a second, all sessions together, each from a random session to another.
    var messagesPerSecond = 50
    /// Time between two random faults of the proxy.
    var faultInterval: Duration = .seconds(1)
    /// Time between two SIGKILLs of the server.
    var restartInterval: Duration = .seconds(20)
    /// The sessions' heartbeat (s): a black-holed connection is noticed within about twice that.
    var heartbeat = 5
    /// Time between two samples of resident memory.
    var sampleInterval: Duration = .seconds(5)
    /// The bound on the end of a run: every session back, every message acknowledged and delivered.
    var settleLimit: Duration = .seconds(120)
    /// Whether the run has the test process to itself (`IMSH_SOAK_SECONDS` set: CI runs it
    /// alone with `--filter SoakTests`). Only then is the test process's memory checked: in a
    /// plain `swift test` the other suites share the process and its memory.
    var isDedicated = false

    /// SIGKILLs in a run: one every `restartInterval`, none at the very end.
    var expectedKills: Int {
        let seconds = duration.components.seconds, interval = restartInterval.components.seconds
        return Int((seconds - 1) / interval)
    }

    static var current: SoakSettings {
        let environment = ProcessInfo.processInfo.environment
        let given = environment["IMSH_SOAK_SECONDS"].flatMap { Int($0) }
        let seed = environment["IMSH_SOAK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64(UInt32.max))
        return SoakSettings(duration: .seconds(max(10, given ?? 30)), seed: seed, isDedicated: given != nil)
    }

    /// The whole test's bound: the run, the settling, and setting up and tearing down.
    var timeLimit: Duration { duration + settleLimit + .seconds(120) }

    /// The same in whole minutes, rounded up, for the suite's time limit trait.
    static var timeLimitMinutes: Int {
        let seconds = current.timeLimit.components.seconds
        return Int((seconds + 59) / 60)
    }
}
