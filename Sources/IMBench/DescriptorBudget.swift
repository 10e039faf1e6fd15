import IMEngine
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The open files a bench needs, and making room for them before it starts.
///
/// Each session holds its client socket, and its SQLite database (the file and its journal)
/// while that is in use: the engine keeps at most `EngineConfiguration.defaultOpenDatabaseLimit`
/// of the open-file limit open at once, closing a database after each use past it. With the server in this
/// process, the server's end of each connection counts too. The margin covers event loops,
/// listeners, the server's store and standard streams.
struct DescriptorBudget: Sendable, Equatable {
    static let margin = 64

    var sessions: Int
    var serverInProcess: Bool
    /// Light clients of `imsh bench login` have no database.
    var withDatabases = true
    /// False when the sessions run in other processes (`--workers`): only the server's ends count.
    var clients = true

    /// Descriptors the bench expects to hold at its peak under an open-file limit of `openFileLimit`.
    func needed(openFileLimit: Int) -> Int {
        let sockets = sessions * ((clients ? 1 : 0) + (serverInProcess ? 1 : 0))
        let databases = clients && withDatabases
            ? min(sessions, EngineConfiguration.defaultOpenDatabaseLimit(openFileLimit: openFileLimit))
                * EngineConfiguration.descriptorsPerOpenDatabase
            : 0
        return sockets + databases + Self.margin
    }

    /// The least open-file limit under which the bench fits: the engine keeps more databases
    /// open under a higher limit, so this is where `needed` stops growing with the limit.
    var sufficientLimit: Int {
        var limit = needed(openFileLimit: 0)
        // `needed` grows by two fifths of the limit at most: this converges in a few steps.
        for _ in 0..<64 {
            let next = needed(openFileLimit: limit)
            if next <= limit { break }
            limit = next
        }
        return limit
    }

    /// Makes the soft limit at least what is `needed`: up to the hard limit, then past it where
    /// the process may (CAP_SYS_RESOURCE); otherwise fails with a line saying what to do.
    func reserve() throws(BenchError) {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        _ = try? ProcessLimits.raiseOpenFileLimit()
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return }
        if needed(openFileLimit: Int(clamping: limit.rlim_cur)) <= limit.rlim_cur { return }
        let needed = sufficientLimit
        let wanted = rlim_t(needed)
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
