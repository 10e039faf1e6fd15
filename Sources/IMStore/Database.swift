import CSQLite

/// One SQLite connection (one `sqlite3` handle) and its statement cache.
///
/// Confinement: a `Database` is not `Sendable`. Exactly one owner uses it at a time, and
/// its calls block (disk I/O, lock waits). Keep it off Swift's cooperative thread pool:
/// hand it to a `DatabaseQueue`, which runs every access on its own serial queue.
public final class Database {
    /// The file this connection opened, or `:memory:`.
    public let path: String
    private var handle: OpaquePointer?
    private var statementCache = StatementCache()
    /// The configuration's, unless a `DatabaseQueue` keeping caches decides instead (`adoptCacheRelease`).
    var releasesMemoryAfterTransactions: Bool
    /// How long a statement waits for another connection's lock (the configuration's).
    let busyTimeoutMilliseconds: Int32
    /// The closure SQLite's WAL hook calls (see `onWALCommit`).
    var walHook: WALHookBox?
    /// What the connection was opened with, to open the file the same way again.
    let configuration: Configuration

    /// Opens (and by default creates) the database at `path` and applies `configuration`.
    ///
    /// A file that is not a database fails here with `isCorruption` (SQLITE_NOTADB), because
    /// setting the journal mode reads the header. Damage deeper in the file shows up at
    /// `quickCheck()` or at the first statement touching it.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws(DatabaseError) {
        try self.init(path: path, configuration: configuration, beforeClosingOnFailure: { _, _ throws(DatabaseError) in })
    }

    /// Opens like the public initializer; when setting up fails, runs `beforeClosingOnFailure`
    /// while the handle is still open (SQLite removes a stray `-wal` when it closes).
    init(
        path: String, configuration: Configuration,
        beforeClosingOnFailure: (OpaquePointer, DatabaseError) throws(DatabaseError) -> Void
    ) throws(DatabaseError) {
        self.path = path
        self.configuration = configuration
        self.releasesMemoryAfterTransactions = configuration.releaseMemoryAfterTransactions
        self.busyTimeoutMilliseconds = configuration.busyTimeoutMilliseconds
        Self.configureProcess()
        if configuration.create && !configuration.readOnly { Self.createPrivately(path) }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, configuration.openFlags, configuration.vfsName)
        guard code == SQLITE_OK, let connection else {
            let error = DatabaseError.last(connection, code: code, sql: nil, path: path)
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, configuration.busyTimeoutMilliseconds)
        if !configuration.lookaside {
            imsh_sqlite_disable_lookaside(connection)
        }
        do {
            try setUp(configuration)
        } catch {
            defer { close() }
            try beforeClosingOnFailure(connection, error)
            throw error
        }
    }

    deinit {
        close()
    }

    /// Process-wide SQLite settings, applied before the first connection opens (they fail
    /// quietly once SQLite is initialized, e.g. when another library opened a database first).
    /// Code that opens SQLite without `Database` (a test's read-only snapshot of a file) calls
    /// this first, so that whichever opens first, the settings hold for the whole process.
    public static func configureProcess() { _ = processConfigured }

    // SQLite's default preallocates a block of cache pages per connection on its first
    // read; with thousands of sessions that block is most of their memory. Pages then come
    // from the heap as needed. Its heap statistics (which nothing here reads) would take one
    // mutex, shared by every connection, around each of its allocations. Its page cache is
    // wrapped so that ending a transaction does not walk it (`TrackedPageCache`), and its
    // files are read without updating their access times (`openFilesWithoutAccessTime`).
    private static let processConfigured: Void = {
        imsh_sqlite_page_cache_on_demand()
        imsh_sqlite_memory_statistics_off()
        TrackedPageCache.install()
        // Last: finding the unix VFS initializes SQLite, after which the settings above fail.
        openFilesWithoutAccessTime()
    }()

    private func setUp(_ configuration: Configuration) throws(DatabaseError) {
        // Reading anything forces SQLite to look at the header: garbage fails here.
        _ = try fetchOnce("PRAGMA schema_version")
        // Before the journal mode: switching to WAL writes the header, fixing the page size.
        if let size = configuration.pageSize, !configuration.readOnly {
            try executeScript("PRAGMA page_size=\(Int32(clamping: size))")
        }
        if let wanted = configuration.journalMode, !configuration.readOnly {
            let mode = try fetchOnce("PRAGMA main.journal_mode=\(wanted.rawValue)").first?[0].string ?? ""
            guard mode.uppercased() == wanted.rawValue || path == ":memory:" else {
                throw DatabaseError(
                    code: SQLITE_ERROR, message: "journal_mode stayed \(mode), wanted \(wanted.rawValue.lowercased())", path: path)
            }
        }
        try executeScript("PRAGMA main.synchronous=\(configuration.synchronous.rawValue)")
        if configuration.exclusiveLocking && !configuration.readOnly {
            // Takes effect at the next transaction: the checks above took their lock and let it go.
            try executeScript("PRAGMA main.locking_mode=EXCLUSIVE")
        }
        if let limit = configuration.cacheLimitKiB {
            try executeScript("PRAGMA main.cache_size=-\(max(1, limit))")
        }
        try executeScript("PRAGMA foreign_keys=\(configuration.foreignKeys ? "ON" : "OFF")")
        if configuration.quickCheckOnOpen {
            try quickCheck()
        }
        if configuration.releaseMemoryAfterTransactions { releaseMemory() }
    }

    /// Runs `body` waiting at most `limit` for another connection's lock instead of the
    /// configured busy timeout. With zero a statement that meets a lock fails at once with
    /// `SQLITE_BUSY`: for a thread that must not stall (an event loop), which then hands the work
    /// to one that may wait.
    public func waitingForLocks<T>(atMost limit: Duration, _ body: (Database) throws -> T) rethrows -> T {
        guard let handle else { return try body(self) }
        let (seconds, attoseconds) = limit.components
        let milliseconds = max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
        return try body(self)
    }

    /// Finalizes cached statements and closes the handle; later calls fail with `misuse`.
    ///
    /// Statements the caller still holds keep the connection alive until released.
    public func close() {
        statementCache.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
        }
        handle = nil
    }

    /// Whether `close()` has been called.
    public var isClosed: Bool { handle == nil }

    func connection(for sql: String?) throws(DatabaseError) -> OpaquePointer {
        guard let handle else {
            throw DatabaseError(code: SQLITE_MISUSE, message: "the database is closed", sql: sql, path: path)
        }
        return handle
    }

    // MARK: Statements

    /// Compiles one statement. The caller owns it; see `cachedStatement` for repeated SQL.
    public func prepare(_ sql: String) throws(DatabaseError) -> Statement {
        try Statement(connection: connection(for: sql), sql: sql, path: path)
    }

    /// A compiled statement for `sql`, reused across calls, reset and with bindings cleared.
    ///
    /// Do not run the same SQL again while still stepping through the returned statement.
    public func cachedStatement(_ sql: String) throws(DatabaseError) -> Statement {
        if let statement = statementCache.statement(for: sql) {
            statement.reset()
            sqlite3_clear_bindings(statement.handle)
            return statement
        }
        let statement = try prepare(sql)
        statementCache.insert(statement, for: sql)
        return statement
    }

    /// Runs one statement with `arguments`, ignoring any rows.
    public func execute(_ sql: String, _ arguments: [DatabaseValue] = []) throws(DatabaseError) {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs one statement and copies out every row.
    public func fetchAll(_ sql: String, _ arguments: [DatabaseValue] = []) throws(DatabaseError) -> [Row] {
        let statement = try cachedStatement(sql)
        // Resetting ends the statement's read transaction, which would otherwise pin the WAL.
        defer { statement.reset() }
        try statement.bind(arguments)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// Runs one statement and copies out its first row, if any.
    public func fetchOne(_ sql: String, _ arguments: [DatabaseValue] = []) throws(DatabaseError) -> Row? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        try statement.bind(arguments)
        return try statement.step() ? statement.row() : nil
    }

    /// Runs one statement and copies out every row, without keeping it compiled: for SQL run
    /// once per connection, whose compiled form would otherwise stay in the cache for good.
    public func fetchOnce(_ sql: String, _ arguments: [DatabaseValue] = []) throws(DatabaseError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// Runs SQL text that may hold several statements and takes no arguments (schema scripts).
    public func executeScript(_ sql: String) throws(DatabaseError) {
        let handle = try connection(for: sql)
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError.last(handle, code: code, sql: sql, path: path)
        }
    }

    // MARK: State

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        handle.map { sqlite3_last_insert_rowid($0) } ?? 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int {
        handle.map { Int(sqlite3_changes64($0)) } ?? 0
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// A number that changes whenever the main database's content changes, through this
    /// connection or any other, in this process or another (`SQLITE_FCNTL_DATA_VERSION`). Another
    /// connection's commit shows once this one has begun a transaction after it; what this one
    /// commits shows at once. For caches kept between transactions: compare it after `BEGIN`
    /// with what it was after the last own `COMMIT`. Nil when closed.
    public var dataVersion: UInt32? {
        guard let handle else { return nil }
        var version: UInt32 = 0
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version) == SQLITE_OK else { return nil }
        return version
    }

    /// The current `PRAGMA journal_mode`, lowercased (`wal`, `delete`, `memory`, ...).
    public func journalMode() throws(DatabaseError) -> String {
        try fetchOnce("PRAGMA journal_mode").first?[0].string?.lowercased() ?? ""
    }

    /// Bytes this connection's page cache holds now (`SQLITE_DBSTATUS_CACHE_USED`).
    public var cacheMemoryUsed: Int {
        guard let handle else { return 0 }
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// The rollback journal's records gathered, the writes they went out in and the writes
    /// that went straight through, when the journal is open through `JournalBatchingVFS` (for tests).
    var journalWriteCounts: (gathered: Int, written: Int, direct: Int)? {
        guard let handle else { return nil }
        var journal: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK else { return nil }
        return JournalBatchingVFS.counts(ofJournal: journal)
    }

    /// Frees the page cache pages no statement is using; the next read fetches them again.
    public func releaseMemory() {
        if let handle { sqlite3_db_release_memory(handle) }
    }

    /// Runs `PRAGMA quick_check` and throws `SQLITE_CORRUPT` with its findings unless "ok".
    public func quickCheck() throws(DatabaseError) {
        let findings = try fetchOnce("PRAGMA main.quick_check").compactMap { $0[0].string }
        guard findings == ["ok"] else {
            let summary = findings.prefix(5).joined(separator: "; ")
            throw DatabaseError(code: SQLITE_CORRUPT, message: "quick_check failed: \(summary)", sql: "PRAGMA main.quick_check", path: path)
        }
    }
}
