import IMEngine
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The open files a bench needs, and making room for them before it starts.
///
/// Each session holds its client socket, and its SQLite database (the file and its journal)
/// while that is in use; with the server in this process, the server's end of each connection
/// counts too. The sockets must fit; the databases the engine keeps open between uses are
/// whatever room is left, up to its own default (`EngineConfiguration.defaultOpenDatabaseLimit`)
/// and at least `minimumOpenDatabases`: past that many a database closes after each use and
/// opens again at the next, slower but within the limit. The margin covers event loops,
/// listeners, the server's store and standard streams.
struct DescriptorBudget: Sendable, Equatable {
    static let margin = 64
    /// The fewest databases kept open between uses: below that, sessions in use at the same
    /// moment would reopen each other's files in turn.
    static let minimumOpenDatabases = 64

    var sessions: Int
    var serverInProcess: Bool
    /// Light clients of `imsh bench login` have no database.
    var withDatabases = true
    /// False when the sessions run in other processes (`--workers`): only the server's ends count.
    var clients = true

    private var sockets: Int { sessions * ((clients ? 1 : 0) + (serverInProcess ? 1 : 0)) }

    /// How many session databases the engine may keep open under `openFileLimit` (its
    /// `openDatabaseLimit`); nil when this process has none.
    func openDatabases(openFileLimit: Int) -> Int? {
        guard clients && withDatabases else { return nil }
        let room = (openFileLimit - sockets - Self.margin) / EngineConfiguration.descriptorsPerOpenDatabase
        let share = min(room, EngineConfiguration.defaultOpenDatabaseLimit(openFileLimit: openFileLimit))
        return min(sessions, max(Self.minimumOpenDatabases, share))
    }

    /// Descriptors the bench expects to hold at its peak under an open-file limit of `openFileLimit`.
    func needed(openFileLimit: Int) -> Int {
        sockets + (openDatabases(openFileLimit: openFileLimit) ?? 0) * EngineConfiguration.descriptorsPerOpenDatabase + Self.margin
    }

    /// The least open-file limit under which the bench fits: its sockets, the fewest databases
    /// kept open, the margin. (A higher limit keeps more databases open; it is not needed.)
    var sufficientLimit: Int {
        needed(openFileLimit: 0)
    }

    /// Makes the soft limit at least what is `needed`: up to the hard limit, then past it where
    /// the process may (CAP_SYS_RESOURCE); otherwise fails with a line saying what to do.
    /// Returns how many databases the engine may keep open under the limit it got (nil: none here).
    @discardableResult
    func reserve() throws(BenchError) -> Int? {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        _ = try? ProcessLimits.raiseOpenFileLimit()
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return openDatabases(openFileLimit: ProcessLimits.openFileLimit) }
        let current = Int(clamping: limit.rlim_cur)
        if needed(openFileLimit: current) <= current { return openDatabases(openFileLimit: current) }
        let needed = sufficientLimit
        let wanted = rlim_t(needed)
        var raised = limit
        raised.rlim_cur = wanted
        raised.rlim_max = max(limit.rlim_max, wanted)
        if setrlimit(resource, &raised) == 0 { return openDatabases(openFileLimit: needed) }
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
