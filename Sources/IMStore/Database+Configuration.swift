import CSQLite

extension Database {
    /// How `Database` opens and sets up its connection.
    ///
    /// Durability: the default is WAL with `synchronous=NORMAL`. A transaction whose COMMIT
    /// returned is in the WAL file through write(2), so it survives the process being killed
    /// (SIGKILL, crash) at any point; only an OS crash or power loss can drop the last commits
    /// before a checkpoint. That matches "acknowledged messages survive a killed process".
    /// Choose `.full` to fsync the WAL on every commit when power loss matters too.
    ///
    /// `compact` is for a process that keeps thousands of small databases open at once (one per
    /// client session): see its notes for what it trades.
    public struct Configuration: Sendable {
        /// Open read-only (no WAL switch, no migrations).
        public var readOnly = false
        /// Create the file when missing.
        public var create = true
        /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// The journal mode to set on open; nil leaves the file's own (a reader's choice).
        public var journalMode: JournalMode? = .wal
        /// The `PRAGMA synchronous` level; see the type's notes on durability.
        public var synchronous: Synchronous = .normal
        /// The most page cache the connection keeps (`PRAGMA cache_size=-N`); nil is SQLite's 2 MiB.
        public var cacheLimitKiB: Int? = nil
        /// SQLite's per-connection lookaside allocator: faster small allocations for about
        /// 50-120 KiB held by every open connection.
        public var lookaside = true
        /// Give the page cache back after each transaction (`sqlite3_db_release_memory`), so an
        /// idle connection holds only its schema and statements; the next transaction rereads
        /// its pages from the OS's file cache.
        public var releaseMemoryAfterTransactions = false
        /// Enforce `FOREIGN KEY` constraints.
        public var foreignKeys = true
        /// Run `PRAGMA quick_check` when opening (cost grows with the file size).
        public var quickCheckOnOpen = false
        /// The page size of a database this connection creates; nil is SQLite's 4,096. An
        /// existing file keeps its own. A commit writes every page it touched whole, so small
        /// rows written a few at a time (a message server's) want smaller pages.
        public var pageSize: Int? = nil
        /// Keep the file's lock from one transaction to the next (`PRAGMA locking_mode=EXCLUSIVE`)
        /// instead of taking and dropping it around each: no other connection can read or
        /// write the file while this one is open. In exchange a transaction no longer looks for
        /// another's changes or a hot journal, and the rollback journal stays open: a small
        /// write transaction costs about a third (BENCHMARKS.md). Not applied read-only.
        public var exclusiveLocking = false
        /// Gather a rollback journal's records and write them in one system call before the
        /// database file is written, or in WAL mode a commit's frames in one at its last frame
        /// (`JournalBatchingVFS`): a rollback commit of three pages makes six writes instead of
        /// fourteen, a WAL commit of five pages one instead of ten, with the same safety.
        public var batchesJournalWrites = false
        /// Lock the database file with locks of the connection's own descriptor
        /// (`DescriptionLockVFS`) instead of SQLite's unix VFS, whose every open walks a list
        /// of all the database files the process has open: for a process with thousands open.
        /// Other processes' SQLite still sees the locks. A file already in WAL mode opens through
        /// the default VFS (it needs its shared memory); one of its own goes to WAL only with
        /// `exclusiveLocking`.
        public var descriptionLocks = false

        public init() {}

        /// For many small databases open at once, each used by one connection: a rollback
        /// journal kept in place and written a commit at a time, the lock kept between
        /// transactions and held by the connection's own descriptor (`descriptionLocks`: an open
        /// costs the same with 10 files open or 10,000), no fsync, no lookaside, a 64 KiB cache
        /// given back after each transaction.
        ///
        /// Measured with 1,000 open files (BENCHMARKS.md): 24 KiB of memory and two descriptors
        /// each (the file and its journal), against 57 KiB and three in WAL mode (whose
        /// shared-memory index alone maps 32 KiB), and a new file in about 1 ms instead of 12.
        /// With the lock kept, a one-row write transaction takes about 20 us instead of 55
        /// (WAL: 24); the price is that the file is the connection's alone while it is open,
        /// so readers of a live session's file go through the session. Durability: every COMMIT has
        /// reached the OS through write(2) before it returns and the journal is written before
        /// the pages it protects, so a killed process (SIGKILL, crash) loses nothing it
        /// committed and leaves a consistent file; an OS crash or power loss may lose recent
        /// commits or damage the file, which the session engine then moves aside and rebuilds.
        public static var compact: Configuration {
            var configuration = Configuration()
            configuration.journalMode = .persist
            configuration.synchronous = .off
            configuration.cacheLimitKiB = 64
            configuration.lookaside = false
            configuration.releaseMemoryAfterTransactions = true
            configuration.exclusiveLocking = true
            configuration.batchesJournalWrites = true
            configuration.descriptionLocks = true
            return configuration
        }

        /// The VFS to open with (nil: SQLite's default), as `batchesJournalWrites` and
        /// `descriptionLocks` ask, where registered.
        var vfsName: String? {
            switch (batchesJournalWrites, descriptionLocks) {
            case (true, true) where JournalBatchingVFS.isAvailableOverDescriptionLocks: JournalBatchingVFS.nameOverDescriptionLocks
            case (true, _) where JournalBatchingVFS.isAvailable: JournalBatchingVFS.name
            case (false, true) where DescriptionLockVFS.isAvailable: DescriptionLockVFS.name
            default: nil
            }
        }

        var openFlags: Int32 {
            var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
            if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
            // One owner at a time (see `Database`), so SQLite's own lock around every call on
            // the connection and its statements guards nothing.
            flags |= SQLITE_OPEN_NOMUTEX
            // URI filenames stay off: a path is a path.
            return flags
        }
    }

    /// How a connection journals its writes.
    public enum JournalMode: String, Sendable {
        /// Write-ahead log: readers do not block the writer; costs a `-wal` and a `-shm` file.
        case wal = "WAL"
        /// Rollback journal whose file stays and is zeroed at each commit, not deleted.
        case persist = "PERSIST"
    }

    /// The `PRAGMA synchronous` levels this package uses.
    public enum Synchronous: String, Sendable {
        /// No fsync: survives a killed process, not an OS crash or power loss.
        case off = "OFF"
        /// Survives process crashes; may lose the last commits on power loss.
        case normal = "NORMAL"
        /// Also survives power loss, at one fsync per commit.
        case full = "FULL"
    }

    /// How `transaction` begins: `immediate` takes the write lock at once, so a
    /// read-then-write transaction cannot fail halfway with `SQLITE_BUSY`.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }
}
