#if canImport(Glibc)
import Glibc
#endif

/// Process-wide settings a server or a many-session client needs before opening sockets.
public enum ProcessLimits {
    /// Raises the soft limit on open files to the hard limit and returns the new soft limit.
    ///
    /// Each connection costs one descriptor (two when both ends run in this process), and the
    /// default soft limit is often 1,024. When the hard limit is unlimited, the kernel's
    /// `fs.nr_open` caps the value.
    @discardableResult
    public static func raiseOpenFileLimit() throws(TransportError) -> Int {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { throw .system(SystemError("getrlimit")) }
        let target = limit.rlim_max == rlim_t.max ? rlim_t(kernelFileCeiling()) : limit.rlim_max
        guard limit.rlim_cur < target else { return Int(clamping: limit.rlim_cur) }
        limit.rlim_cur = target
        guard setrlimit(resource, &limit) == 0 else { throw .system(SystemError("setrlimit")) }
        return Int(clamping: target)
    }

    /// The soft limit on open files now.
    public static var openFileLimit: Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// The lowest descriptor number a listener no longer hands on as a connection, under a
    /// soft limit of `limit` open files: a connection accepted at or above it is closed at
    /// once, so that connections never take the last descriptors (64, or a quarter of a small
    /// limit).
    ///
    /// Why: the process needs a few at any time, and libdispatch's thread-pool monitor ends
    /// the whole process ("workq: registered worker exited prematurely") when it cannot open
    /// a worker's `/proc/<tid>/stat`; a server that took 30,000 clients on 20,000 descriptors
    /// died that way. Descriptors come lowest first, so a connection's number at or above the
    /// ceiling means the ones below it are all in use.
    public static func connectionCeiling(limit: Int = openFileLimit) -> Int {
        limit - min(64, limit / 4)
    }

    /// Makes a write to a closed socket fail with EPIPE instead of killing the process.
    ///
    /// The transport also passes MSG_NOSIGNAL on every send; this covers other code in the
    /// process (and TLS libraries that write on their own). Event loops call it on creation.
    public static func ignoreSIGPIPE() {
        _ = sigpipeIgnored
    }

    private static let sigpipeIgnored: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    /// `/proc/sys/fs/nr_open`, or its usual default when unreadable.
    private static func kernelFileCeiling() -> Int {
        let fallback = 1 << 20
        let fd = open("/proc/sys/fs/nr_open", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return fallback }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &bytes, bytes.count)
        guard count > 0 else { return fallback }
        let digits = bytes[..<count].prefix { $0 >= 0x30 && $0 <= 0x39 }
        return Int(String(decoding: digits, as: UTF8.self)) ?? fallback
    }
}
