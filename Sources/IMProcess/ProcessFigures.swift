#if canImport(Glibc)
import Glibc
#endif

/// This process's CPU time, memory, descriptors and start, as the kernel counts them in /proc:
/// the `process_*` figures of a Prometheus exposition.
///
/// Reads a few small files and lists /proc/self/fd: a blocking call (`BlockingCall`).
public struct ProcessFigures: Sendable, Equatable {
    /// User plus system CPU time, in seconds.
    public var cpuSeconds: Double
    public var residentBytes: Int
    public var virtualBytes: Int
    /// Open descriptors (the listing's own excepted).
    public var openDescriptors: Int
    /// The soft limit on open descriptors (RLIMIT_NOFILE).
    public var maxDescriptors: Int
    /// When the process started, in seconds since the epoch.
    public var startTimeSeconds: Double

    /// This process now; nil where /proc cannot be read.
    public static func current() -> ProcessFigures? {
        guard let stat = ProcFile.read("/proc/self/stat"), let close = stat.lastIndex(of: ")"),
              let boot = bootTime() else { return nil }
        // Fields after the command name, which may hold spaces: state is field 3, utime 14,
        // stime 15, starttime 22, vsize 23, rss 24 (pages).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 22, let user = Double(fields[11]), let system = Double(fields[12]),
              let started = Double(fields[19]), let virtual = Int(fields[20]), let pages = Int(fields[21]) else { return nil }
        let ticks = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
        var limit = rlimit()
        let maxDescriptors = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        return ProcessFigures(
            cpuSeconds: (user + system) / ticks, residentBytes: pages * sysconf(Int32(_SC_PAGESIZE)), virtualBytes: virtual,
            openDescriptors: max(0, ProcFile.countEntries("/proc/self/fd") - 1), maxDescriptors: maxDescriptors,
            startTimeSeconds: boot + started / ticks)
    }

    /// The `btime` line of /proc/stat: when the system booted, in seconds since the epoch.
    private static func bootTime() -> Double? {
        guard let text = ProcFile.read("/proc/stat") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst("btime ".count))
        }
        return nil
    }
}
