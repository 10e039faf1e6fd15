import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The open files a bench needs, and making room for them before it starts.
///
/// Each session holds its client socket and its SQLite database, one file while idle (its
/// rollback journal is open only during a transaction, on one of a few database threads);
/// with the server in this process, the server's end of each connection counts too. The
/// margin covers event loops, listeners, open journals, the server's store and standard streams.
struct DescriptorBudget: Sendable, Equatable {
    static let perDatabase = 1
    static let margin = 64

    var sessions: Int
    var serverInProcess: Bool
    /// Light clients of `imsh bench login` have no database.
    var withDatabases = true
    /// False when the sessions run in other processes (`--workers`): only the server's ends count.
    var clients = true

    /// Descriptors the bench expects to hold at its peak.
    var needed: Int {
        sessions * ((clients ? 1 + (withDatabases ? Self.perDatabase : 0) : 0) + (serverInProcess ? 1 : 0)) + Self.margin
    }

    /// Makes the soft limit at least `needed`: up to the hard limit, then past it where the
    /// process may (CAP_SYS_RESOURCE); otherwise fails with a line saying what to do.
    func reserve() throws(BenchError) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        _ = try? ProcessLimits.raiseOpenFileLimit()
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        let wanted = rlim_t(needed)
        if limit.rlim_cur >= wanted { return }
        var raised = limit
        raised.rlim_cur = wanted
        raised.rlim_max = max(limit.rlim_max, wanted)
        if setrlimit(resource, &raised) == 0 { return }
        let reason = String(cString: strerror(errno))
        var advice = "raise it with 'ulimit -n \(needed)' before starting imsh (a hard limit rises only with CAP_SYS_RESOURCE or limits.conf), or use fewer \(withDatabases ? "--accounts" : "--connections")"
        if serverInProcess { advice += ", or --server spawn (the server's sockets then count in its own process)" }
        if withDatabases && clients { advice += ", or (bench connect) --workers N, each worker process with a limit of its own" }
        throw BenchError("""
            \(sessions) \(withDatabases ? "sessions" : "connections") need about \(needed) open files, but the limit is \(limit.rlim_cur) \
            (hard limit \(limit.rlim_max)) and cannot be raised (\(reason)): \(advice)
            """)
    }
}
