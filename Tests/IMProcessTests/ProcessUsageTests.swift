import IMProcess
import Dispatch
import IMThreads
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Readings of this process from /proc: the CPU of threads picked by name is their own,
/// and a part of the whole.
struct ProcessUsageTests {
    @Test func aReadingGivesTheCPUOfTheThreadsSoNamed() throws {
        let burnt = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let before = try #require(ProcessUsage.of(pid: getpid(), threadPrefix: "usage-burn"))
        #expect(before.namedThreads == .zero)
        let thread = SystemThread.spawn(name: "usage-burn-0") {
            // 300 ms of its own CPU (not of the wall clock, which a loaded machine stretches),
            // then alive until the reading is taken: a thread gone is not read.
            func cpu() -> Duration {
                var now = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
            }
            let end = cpu() + .milliseconds(300)
            var spins = 0
            while cpu() < end { spins &+= 1 }
            burnt.signal()
            release.wait()
            precondition(spins > 0)
        }
        burnt.wait()
        let after = try #require(ProcessUsage.of(pid: getpid(), threadPrefix: "usage-burn"))
        let others = try #require(ProcessUsage.of(pid: getpid(), threadPrefix: "no-such-thread"))
        release.signal()
        pthread_join(thread, nil)
        let cost = after.since(before)
        let named = try #require(cost.namedThreads)
        // Clock ticks are 10 ms; the thread may have waited for a core now and then.
        #expect(named >= .milliseconds(150) && named <= cost.cpu, "\(named) of \(cost.cpu)")
        #expect(others.namedThreads == .zero)
        #expect(ProcessUsage.of(pid: getpid())?.namedThreads == nil)
    }

    @Test func thisProcessKeepsTheSwitchesOfThreadsThatEnded() throws {
        let before = try #require(ProcessUsage.of(pid: getpid()))
        let thread = SystemThread.spawn(name: "usage-sleeper") {
            // Each sleep is a voluntary switch.
            for _ in 0..<50 { usleep(1_000) }
        }
        pthread_join(thread, nil)
        let after = try #require(ProcessUsage.of(pid: getpid()))
        #expect(after.since(before).contextSwitches >= 50)
    }

    /// The command name may hold ") " itself: the fields are counted from the last ")".
    @Test func aStatLineIsReadPastACommandNameWithParentheses() throws {
        let text = "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 3 0 12345 67108864 1024 18446744073709551615"
        let stat = try #require(ProcStat(parsing: text))
        #expect(stat == ProcStat(parsing: text))
        #expect(stat.state == "S" && stat.parent == 17 && stat.cpuTicks == 300)
        #expect(stat.startTicks == 12345 && stat.virtualBytes == 67_108_864 && stat.residentPages == 1024)
        #expect(ProcStat(parsing: "4242 (short) S 1 2") == nil)
        #expect(try #require(ProcStat.of(pid: getpid())).isRunning)
    }
}
