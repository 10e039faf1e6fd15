#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// Asks every child this process spawned and has not reaped to end (`signal`), gives them
    /// `grace` to do so, then kills what is left; returns once none is running.
    ///
    /// For a process that is ending on a signal of its own: what it started (a server it
    /// spawned, worker processes) ends with it instead of running on as init's. The children's
    /// owners may still `wait` for them: this only looks at /proc, it reaps nothing.
    public static func stopAll(signal: Int32 = SIGTERM, grace: Duration = .seconds(3)) {
        let children = Orphans.spawned.withLock { Array($0) }
        for pid in children { _ = kill(pid, signal) }
        let deadline = ContinuousClock.now + grace
        var running = children
        while !running.isEmpty {
            running.removeAll { !isRunning($0) }
            if running.isEmpty { return }
            if ContinuousClock.now >= deadline {
                for pid in running { _ = kill(pid, SIGKILL) }
                return
            }
            usleep(20_000)
        }
    }

    /// Cancels every `run` under way (`RunCancellation`) and waits up to `limit` for them to
    /// return, their children ended and swept.
    ///
    /// For a process about to exit: a run on a thread nobody waits for (a connect attempt
    /// given up, its token command still running) would otherwise leave its child to init.
    public static func cancelRuns(within limit: Duration = .seconds(3)) {
        RunCancellation.live.withLock { $0.values.forEach { $0.cancel() } }
        let deadline = ContinuousClock.now + limit
        while !RunCancellation.live.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }

    /// Whether process `pid` is alive and not yet a zombie, from /proc.
    public static func isRunning(_ pid: pid_t) -> Bool {
        ProcStat.of(pid: pid)?.isRunning ?? false
    }
}
