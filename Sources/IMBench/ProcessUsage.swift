import IMProcess

#if canImport(Glibc)
import Glibc
#endif

/// The CPU time and context switches a process has used so far, from /proc: two readings
/// give what a stretch of work cost it.
struct ProcessUsage: Sendable, Equatable {
    /// User plus system time.
    var cpu: Duration
    /// Voluntary (it waited) plus involuntary (it was preempted) switches, over all its threads.
    var contextSwitches: Int

    /// Process `pid` now; nil once it is gone or where /proc cannot be read.
    static func of(pid: pid_t) -> ProcessUsage? {
        guard let stat = ProcFile.read("/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        let ticks = max(1, sysconf(Int32(_SC_CLK_TCK)))
        let cpu = Duration.milliseconds((user + system) * 1000 / ticks)
        return ProcessUsage(cpu: cpu, contextSwitches: switches(pid))
    }

    /// The sum over the process's threads: /proc/PID/status counts the main thread alone.
    private static func switches(_ pid: pid_t) -> Int {
        guard let directory = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(directory) }
        var total = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), let status = ProcFile.read("/proc/\(pid)/task/\(name)/status") else { continue }
            for line in status.split(separator: "\n") {
                guard line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") else { continue }
                total += line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap { Int($0) } ?? 0
            }
        }
        return total
    }

    /// What happened between `earlier` and this reading.
    func since(_ earlier: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpu: cpu - earlier.cpu, contextSwitches: contextSwitches - earlier.contextSwitches)
    }
}
