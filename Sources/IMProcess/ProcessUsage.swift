#if canImport(Glibc)
import Glibc
#endif

/// The CPU time and context switches a process has used so far, from /proc: two readings
/// give what a stretch of work cost it.
public struct ProcessUsage: Sendable, Equatable {
    /// User plus system time.
    public var cpu: Duration
    /// Voluntary (it waited) plus involuntary (it was preempted) switches, over all its threads:
    /// for this process those that ended too (getrusage(2)); for another, those alive at the
    /// reading (/proc has no total), so that a reading after a busy thread ended counts less.
    public var contextSwitches: Int
    /// User plus system time of the threads whose names start with the prefix the reading
    /// asked for (a session engine's event loops, say); nil when none was asked for.
    ///
    /// Only threads alive at the reading count, so two readings give a share of `cpu` only for
    /// threads that live across both, as event loops do.
    public var namedThreads: Duration?

    /// Process `pid` now; nil once it is gone or where /proc cannot be read.
    ///
    /// - Parameter threadPrefix: also sum the CPU time of the threads so named (`namedThreads`).
    public static func of(pid: pid_t, threadPrefix: String? = nil) -> ProcessUsage? {
        guard let ticks = ProcStat.of(pid: pid)?.cpuTicks else { return nil }
        var switches = 0
        var named = 0
        let isSelf = pid == getpid()
        // /proc/PID/status counts the main thread's switches alone: each thread's are summed.
        for thread in ProcFile.entries("/proc/\(pid)/task") {
            let task = "/proc/\(pid)/task/\(thread)"
            if !isSelf, let status = ProcFile.read("\(task)/status") { switches += Self.switches(inStatus: status) }
            if let threadPrefix, ProcFile.read("\(task)/comm")?.hasPrefix(threadPrefix) == true {
                named += ProcStat.read("\(task)/stat")?.cpuTicks ?? 0
            }
        }
        if isSelf {
            var usage = rusage()
            if getrusage(RUSAGE_SELF.rawValue, &usage) == 0 { switches = usage.ru_nvcsw + usage.ru_nivcsw }
        }
        return ProcessUsage(cpu: duration(ofTicks: ticks), contextSwitches: switches,
                            namedThreads: threadPrefix == nil ? nil : duration(ofTicks: named))
    }

    /// What happened between `earlier` and this reading.
    public func since(_ earlier: ProcessUsage) -> ProcessUsage {
        var named: Duration?
        if let namedThreads, let before = earlier.namedThreads { named = namedThreads - before }
        // Another process's threads that ended in between take their switches with them.
        return ProcessUsage(cpu: cpu - earlier.cpu, contextSwitches: max(0, contextSwitches - earlier.contextSwitches),
                            namedThreads: named)
    }

    private static func duration(ofTicks ticks: Int) -> Duration {
        .milliseconds(ticks * 1000 / ProcStat.ticksPerSecond)
    }

    private static func switches(inStatus status: String) -> Int {
        var total = 0
        for line in status.split(separator: "\n") {
            guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { continue }
            total += line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { Int($0) } ?? 0
        }
        return total
    }
}
