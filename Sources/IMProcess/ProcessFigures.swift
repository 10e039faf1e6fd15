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
        guard let stat = ProcStat.read("/proc/self/stat"), let boot = bootTime() else { return nil }
        let ticks = Double(ProcStat.ticksPerSecond)
        var limit = rlimit()
        let maxDescriptors = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        return ProcessFigures(
            cpuSeconds: Double(stat.cpuTicks) / ticks, residentBytes: stat.residentPages * sysconf(Int32(_SC_PAGESIZE)),
            virtualBytes: stat.virtualBytes, openDescriptors: ProcessStatus.descriptors(of: "self"), maxDescriptors: maxDescriptors,
            startTimeSeconds: boot + Double(stat.startTicks) / ticks)
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
