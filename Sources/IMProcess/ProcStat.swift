#if canImport(Glibc)
import Glibc
#endif

/// The fields of a process's or a thread's `stat` file (/proc/PID/stat, /proc/PID/task/TID/stat)
/// that imsh reads: proc(5) numbers them from 1, the pid, then the command name in parentheses.
///
/// The command name may hold spaces and parentheses, so the fields are counted from the last ")".
public struct ProcStat: Sendable, Equatable {
    /// Field 3: R, S, D, Z (a zombie, ended but not reaped), X (dead), ...
    public var state: Character
    /// Field 4.
    public var parent: Int32
    /// Fields 14 and 15, utime plus stime, in clock ticks.
    public var cpuTicks: Int
    /// Field 22: when the process started, in clock ticks since boot.
    public var startTicks: Int
    /// Field 23: virtual memory size in bytes.
    public var virtualBytes: Int
    /// Field 24: resident set size in pages.
    public var residentPages: Int

    /// Reads the `stat` file at `path`; nil once the process is gone or the file is not one.
    public static func read(_ path: String) -> ProcStat? {
        ProcFile.read(path).flatMap(ProcStat.init(parsing:))
    }

    /// Process `pid`'s; nil once it is gone.
    public static func of(pid: Int32) -> ProcStat? { read("/proc/\(pid)/stat") }

    /// Parses the text of a `stat` file.
    public init?(parsing text: String) {
        guard let close = text.lastIndex(of: ")") else { return nil }
        // fields[0] is field 3 of proc(5).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 21, let state = fields[0].first, let parent = Int32(fields[1]),
              let user = Int(fields[11]), let system = Int(fields[12]), let start = Int(fields[19]),
              let virtual = Int(fields[20]), let pages = Int(fields[21]) else { return nil }
        self.state = state
        self.parent = parent
        cpuTicks = user + system
        startTicks = start
        virtualBytes = virtual
        residentPages = pages
    }

    /// Clock ticks a second (sysconf(_SC_CLK_TCK)), the unit of `cpuTicks` and `startTicks`.
    public static var ticksPerSecond: Int { max(1, sysconf(Int32(_SC_CLK_TCK))) }

    /// Whether the process still runs: neither a zombie nor dead.
    public var isRunning: Bool { state != "Z" && state != "X" }
}
