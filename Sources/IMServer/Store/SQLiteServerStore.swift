import IMStore

#if canImport(Glibc)
import Glibc
#endif

/// The IM server's durable state in SQLite: app overrides, users' states, devices, messages and each
/// device's queue of undelivered messages, in one SQLite file `DATA/server.sqlite` (WAL mode).
///
/// Confinement: the connection belongs to one `DatabaseQueue`, which runs every call on its own
/// serial dispatch queue, off Swift's cooperative pool; the class itself holds only immutable
/// references, hence `Sendable`. Calls complete in submission order and each write is one
/// transaction, so a method that returned has committed (durable against a killed process;
/// see `Database.Configuration` for power loss).
///
/// Several processes may open the same file (the server and `imserver app`); SQLite's locks
/// serialize their writes and `externalChangeCounter()` tells the server when to reload.
public final class SQLiteServerStore: ServerStore {
    /// The database file's name inside the data directory.
    public static let fileName = "server.sqlite"

    /// The database file.
    public let path: String
    public var location: String { path }
    let queue: DatabaseQueue
    /// How commits reach the disk, for every connection to the file (see `Database.Configuration`).
    let synchronous: Database.Synchronous

    private init(path: String, queue: DatabaseQueue, synchronous: Database.Synchronous) {
        self.path = path
        self.queue = queue
        self.synchronous = synchronous
    }

    /// Per-connection settings. The cid index takes inserts at random places, so once it
    /// outgrows SQLite's default 2 MiB page cache every message costs page reads; 64 MiB
    /// keeps it in memory for millions of messages. No memory-mapped reads: in WAL mode SQLite
    /// then looks each page up in the WAL's index before its cache, on every access, which
    /// cost more at light load than the copies it spares (BENCHMARKS.md, issue 17's eighth step).
    static let connectionPragmas = "PRAGMA cache_size = -65536"

    /// The page size of a new database file. At a few messages per commit a message writes
    /// about seven pages of WAL (one per table and index it touches): with 2 KiB pages that is
    /// half the bytes of SQLite's 4 KiB, for less CPU and a shorter latency tail at light load
    /// and the same saturated rate (1 KiB cost a tenth of that rate). BENCHMARKS.md.
    static let pageSize = 2048

    /// The longest a restarting checkpoint waits for readers of the old log, holding the
    /// writers' lock meanwhile (see `checkpoint`).
    static let restartPatience: Duration = .milliseconds(100)

    /// Opens or creates `DIRECTORY/server.sqlite`, creating the directory (mode 0700) if missing,
    /// and migrates it to the current schema. A directory others may write to or another user
    /// owns is refused, as is a database (or journal) that is not a regular file.
    ///
    /// - Parameter synchronous: `.normal` survives a killed process; `.full` also power loss,
    ///   at one fsync per commit.
    /// - Throws: `ServerStoreError.cannotOpen` naming the file and the reason (permissions, a
    ///   damaged file, a schema newer than this program). A damaged file is never moved aside
    ///   here: the queued messages in it are the operator's to rescue.
    /// `DIRECTORY/server.sqlite`.
    public static func path(in directory: String) -> String { directory + "/" + fileName }

    /// Why the database in an existing `directory` may not be opened: a directory others may
    /// write to or another user owns, or a database (or journal) that is not a regular file.
    static func refusal(of directory: String) -> String? {
        if let unsafe = DataDirectory.unsafety(of: directory) { return unsafe }
        let path = path(in: directory)
        // SQLite follows a symlinked database and writes its journals beside the target.
        return DataDirectory.firstNonRegularFile([path, path + "-wal", path + "-shm"])
            .map { "\($0) is not a regular file (a symlink?); remove it" }
    }

    public static func open(
        directory: String, synchronous: Database.Synchronous = .normal
    ) async throws(ServerStoreError) -> SQLiteServerStore {
        let path = path(in: directory)
        if let failure = Database.createDirectories(directory) ?? refusal(of: directory) {
            throw .cannotOpen(path: path, reason: failure)
        }
        var configuration = Database.Configuration()
        configuration.synchronous = synchronous
        configuration.pageSize = Self.pageSize
        configuration.batchesJournalWrites = true
        do {
            let (queue, _) = try await DatabaseQueue.open(path: path, configuration: configuration, migrator: migrator)
            try await queue.run { db in try db.executeScript(Self.connectionPragmas) }
            return SQLiteServerStore(path: path, queue: queue, synchronous: synchronous)
        } catch let error as DatabaseError {
            throw .cannotOpen(path: path, reason: Self.reason(error))
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Closes the file after the work already submitted; later calls fail.
    public func close() async { await queue.close() }

    /// The default data directory: `$XDG_STATE_HOME/imserver`, else `$HOME/.local/state/imserver`,
    /// else `./imserver-data` when neither variable is set.
    public static func defaultDirectory(environment: (String) -> String? = SQLiteServerStore.environment) -> String {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return state + "/imserver"
        }
        if let home = environment("HOME"), !home.isEmpty {
            return home + "/.local/state/imserver"
        }
        return "imserver-data"
    }

    /// The process environment's value for `name`.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// A number that changes whenever another connection (another process, another
    /// `SQLiteServerStore` on the same file, or the broker's message lane) commits to the
    /// database; the store's own commits leave it.
    ///
    /// This is SQLite's `PRAGMA data_version` on the store's connection: cheap (no disk read),
    /// so a server can poll it every second and reload `appOverrides()` only when it moved
    /// (under traffic the lane moves it, and the small app table is read once a second).
    public func externalChangeCounter() async throws(ServerStoreError) -> Int64 {
        try await run("read the change counter") { db in
            try db.fetchOne("PRAGMA data_version")?[0].int64 ?? 0
        }
    }

    /// Copies the WAL's pages into the database file. Runs on the store's queue: a checkpoint
    /// syncs files, which the message lane's loop must not wait for.
    ///
    /// - Parameter restart: also wait for writers to pause so that the whole WAL is copied and
    ///   the next write starts it from the beginning; else copy what can be copied without waiting.
    ///
    /// A restart first copies without waiting, then waits only to copy what was written
    /// meanwhile: the writers' lock is held for a few hundred pages and two syncs rather than
    /// for thousands of pages. Holding it through a whole copy stalled the lane for
    /// milliseconds about once a second at 5,000 messages/s and took p99 from 1.5 ms to 3 ms
    /// (BENCHMARKS.md, issue 17's tenth step).
    func checkpoint(restart: Bool) async throws(ServerStoreError) {
        try await run("checkpoint the write-ahead log") { db in
            _ = try db.fetchOnce("PRAGMA wal_checkpoint(PASSIVE)")
            // RESTART keeps every writer out, the message lane too, while it waits for readers
            // of the old log: a long one (`imserver app`, an API read) would stall every send
            // for the whole busy timeout. Short of that wait it stops and the next one tries again.
            if restart {
                _ = try db.waitingForLocks(atMost: Self.restartPatience) { try $0.fetchOnce("PRAGMA wal_checkpoint(RESTART)") }
            }
        }
    }

    // MARK: Running work

    /// Runs `body` in one immediate transaction; any failure becomes `failed(operation)`.
    func write<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(ServerStoreError) -> T {
        try await mapErrors(operation) { try await self.queue.write(body) }
    }

    /// Runs `body` in one deferred transaction (one consistent snapshot).
    func read<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(ServerStoreError) -> T {
        try await mapErrors(operation) { try await self.queue.read(body) }
    }

    /// Runs `body` outside any transaction (for pragmas that must not open one).
    func run<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws(ServerStoreError) -> T {
        try await mapErrors(operation) { try await self.queue.run(body) }
    }

    private func mapErrors<T>(_ operation: String, _ body: () async throws -> T) async throws(ServerStoreError) -> T {
        do {
            return try await body()
        } catch {
            throw storeError(error, operation: operation)
        }
    }

    /// `error` as this store reports it: SQLite's failures name the file and the operation.
    func storeError(_ error: any Error, operation: String) -> ServerStoreError {
        switch error {
        case let error as ServerStoreError: return error
        // Locked for longer than the server waits: the same call may succeed later, and a
        // client told so (`unavailable`) sends again instead of giving its message up.
        case let error as DatabaseError where error.code == .busy || error.code == .locked:
            return .unavailable(operation: operation, location: path, reason: Self.reason(error))
        case let error as DatabaseError: return .failed(operation: operation, path: path, reason: Self.reason(error))
        default: return .failed(operation: operation, path: path, reason: "\(error)")
        }
    }

    /// SQLite's message with a hint for the failures an operator can fix.
    private static func reason(_ error: DatabaseError) -> String {
        switch error.code {
        case .full: return "\(error.message) (free some disk space)"
        case .busy, .locked: return "\(error.message) (another process holds the database; try again)"
        case .readOnly, .permission, .cannotOpen: return "\(error.message) (check the file's and directory's permissions)"
        case .corrupt, .notADatabase: return "\(error.message) (the file is damaged; move it and its -wal aside)"
        default: return error.message
        }
    }
}
