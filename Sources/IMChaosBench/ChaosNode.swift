import Foundation
import IMBench
import IMLaunch
import IMProcess
import IMThreads
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One imserver node of a chaos run, through all its lives: started on free ports with
/// `--store` (through its PostgreSQL proxy) and `--advertise` (its clients' proxy), killed,
/// frozen, stopped and started again by the run, and watched for an end the run did not cause.
///
/// Its output goes to a file in the run's directory, one per life (`ImserverLauncher`'s log),
/// so that no pipe can fill and stall it and a failed run leaves what each node said.
final class ChaosNode: Sendable {
    struct Life: Sendable {
        var process: ChildProcess
        var mqttPort: UInt16
        var apiPort: UInt16
        var log: String
    }

    private struct State {
        var life: Life?
        var lives = 0
        /// Whether the run froze it (SIGSTOP) and has not thawed it yet.
        var isFrozen = false
        /// Whether the run is stopping it (SIGTERM): its end is the run's, not its own.
        var isStopping = false
        /// Ends the run did not cause, in words.
        /// With when each was seen.
        var unexpectedEnds: [(at: ContinuousClock.Instant, text: String)] = []
        /// Heap (RssAnon, KiB) sampled in each life, in order.
        var heapSamples: [(life: Int, kilobytes: Int)] = []
    }

    let name: String
    let index: Int
    /// The options of every life, after those `ImserverLauncher` gives (listeners, `--json`).
    private let options: [String]
    private let directory: String
    private let state = Mutex(State())

    /// `store`: the node's URL of the store (its PostgreSQL proxy); `advertise`: where its
    /// clients reach it (its clients' proxy), named in the Server Reference of its stop.
    init(index: Int, store: String, advertise: String, directory: String) {
        self.index = index
        name = "n\(index + 1)"
        self.directory = directory
        options = ["--store", store, "--node-name", name, "--advertise", advertise, "--drain-timeout", "5"]
    }

    var life: Life? { state.withLock { $0.life } }
    var lives: Int { state.withLock { $0.lives } }
    var unexpectedEnds: [(at: ContinuousClock.Instant, text: String)] { state.withLock { $0.unexpectedEnds } }
    var heapSamples: [(life: Int, kilobytes: Int)] { state.withLock { $0.heapSamples } }

    /// Starts a new life and returns once it listens (within 60 s: a node whose store is cut off
    /// waits for it).
    @discardableResult
    func start() async throws(BenchError) -> Life {
        let number = state.withLock { state -> Int in
            state.lives += 1
            return state.lives
        }
        let log = "\(directory)/\(name)-\(number).log"
        var launcher = ImserverLauncher(options: options, output: .log(log))
        launcher.startTimeout = .seconds(60)
        let server: LaunchedImserver
        do {
            server = try await launcher.start()
        } catch {
            throw BenchError("\(name): \(error)")
        }
        let life = Life(process: server.child, mqttPort: server.mqttPort, apiPort: server.apiPort, log: log)
        state.withLock { $0.life = life }
        return life
    }

    /// SIGKILL, and waits for the process to be gone.
    func kill() async {
        guard let life = state.withLock({ $0.life.take() }) else { return }
        life.process.signal(SIGCONT)
        life.process.signal(SIGKILL)
        state.withLock { $0.isFrozen = false }
        _ = await BlockingCall.run { life.process.wait() }
    }

    /// SIGTERM (the graceful stop that sends its clients elsewhere) and waits for it, up to
    /// `limit`; a node that did not end by then, or ended with a failure, is an unexpected end.
    /// While `cutOffUntil` names a time (its link to PostgreSQL was cut), the wait runs to
    /// `limit` past it: the stop waits for the database calls under way, which end once the
    /// link is back.
    func terminate(within limit: Duration, cutOffUntil: @Sendable () -> ContinuousClock.Instant? = { nil }) async {
        guard let life = state.withLock({ state -> Life? in
            state.isStopping = state.life != nil
            return state.life
        }) else { return }
        defer { state.withLock { $0.isStopping = false } }
        life.process.signal(SIGTERM)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < max(deadline, cutOffUntil().map { $0 + limit } ?? deadline) {
            if let ending = Self.reap(life.process) {
                state.withLock { state in
                    state.life = nil
                    if ending != .exited(0) { state.unexpectedEnds.append((.now, "\(name) ended with \(ending) after SIGTERM")) }
                }
                return
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        state.withLock { $0.unexpectedEnds.append((.now, "\(name) still ran \(limit) after SIGTERM (after its store link's cut, if any)")) }
        await kill()
    }

    /// SIGSTOP: the node holds its sockets and answers nothing.
    func freeze() {
        state.withLock { state in
            guard let life = state.life else { return }
            life.process.signal(SIGSTOP)
            state.isFrozen = true
        }
    }

    /// SIGCONT after `freeze`.
    func thaw() {
        state.withLock { state in
            guard state.isFrozen, let life = state.life else { return }
            life.process.signal(SIGCONT)
            state.isFrozen = false
        }
    }

    /// Whether the life runs; one that ended by itself is recorded as an unexpected end.
    func check() {
        state.withLock { state in
            guard !state.isStopping, let life = state.life, let ending = Self.reap(life.process) else { return }
            state.unexpectedEnds.append((.now, "\(name) life \(state.lives) ended by itself (\(ending)): \(Self.tail(of: life.log))"))
            state.life = nil
        }
    }

    /// Records the heap of the life running now.
    func sampleMemory() {
        state.withLock { state in
            guard let life = state.life, !state.isFrozen, let status = ProcessStatus.of(pid: life.process.pid) else { return }
            state.heapSamples.append((state.lives, status.anonymousKB))
        }
    }

    /// How the process ended, reaped, if it has; nil while it runs.
    private static func reap(_ process: ChildProcess) -> ChildProcess.Termination? {
        var status: Int32 = 0
        guard waitpid(process.pid, &status, WNOHANG) == process.pid else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return String(text.suffix(1_500))
    }
}
