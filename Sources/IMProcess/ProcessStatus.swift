#if canImport(Glibc)
import Glibc
#endif

/// A process's resident memory and open descriptors, as the kernel counts them in /proc.
///
/// Memory figures are kilobytes from `/proc/PID/status`: `VmRSS`, split into `RssAnon` (heap,
/// stacks), `RssFile` (mapped files: the binary, libraries, SQLite's shared memory when it is
/// a file mapping) and `RssShmem`. Descriptors are the entries of `/proc/PID/fd`.
public struct ProcessStatus: Sendable, Equatable {
    public var residentKB: Int
    public var anonymousKB: Int
    public var fileKB: Int
    public var sharedKB: Int
    public var descriptors: Int

    public init(residentKB: Int, anonymousKB: Int, fileKB: Int, sharedKB: Int, descriptors: Int) {
        self.residentKB = residentKB
        self.anonymousKB = anonymousKB
        self.fileKB = fileKB
        self.sharedKB = sharedKB
        self.descriptors = descriptors
    }

    /// This process now; nil where /proc cannot be read.
    public static func current() -> ProcessStatus? { read(process: "self") }

    /// Process `pid` now; nil once it is gone or where /proc cannot be read.
    public static func of(pid: pid_t) -> ProcessStatus? { read(process: String(pid)) }

    private static func read(process: String) -> ProcessStatus? {
        guard let text = ProcFile.read("/proc/\(process)/status") else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon]
            guard name.hasPrefix("Vm") || name.hasPrefix("Rss") else { continue }
            fields[name] = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        }
        guard let resident = fields["VmRSS"] else { return nil }
        return ProcessStatus(
            residentKB: resident, anonymousKB: fields["RssAnon"] ?? 0, fileKB: fields["RssFile"] ?? 0,
            sharedKB: fields["RssShmem"] ?? 0, descriptors: descriptors(of: process))
    }

    /// Entries of /proc/PID/fd (for "self", without the listing's own descriptor).
    static func descriptors(of process: String) -> Int {
        let count = ProcFile.count("/proc/\(process)/fd")
        return process == "self" ? max(0, count - 1) : count
    }
}
