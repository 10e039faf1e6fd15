import CSQLite

extension Database {
    /// How `Database` opens and sets up its connection.
    ///
    /// Durability: the default is WAL with `synchronous=NORMAL`. A transaction whose COMMIT
    /// returned is in the WAL file through write(2), so it survives the process being killed
    /// (SIGKILL, crash) at any point; only an OS crash or power loss can drop the last commits
    /// before a checkpoint. That matches "acknowledged messages survive a killed process".
    /// Choose `.full` to fsync the WAL on every commit when power loss matters too.
    public struct Configuration: Sendable {
        /// Open read-only (no WAL switch, no migrations).
        public var readOnly = false
        /// Create the file when missing.
        public var create = true
        /// How long a statement waits for another connection's lock before `SQLITE_BUSY`.
        public var busyTimeoutMilliseconds: Int32 = 5_000
        /// Use write-ahead logging (readers do not block the writer).
        public var walMode = true
        /// The `PRAGMA synchronous` level; see the type's notes on durability.
        public var synchronous: Synchronous = .normal
        /// Enforce `FOREIGN KEY` constraints.
        public var foreignKeys = true
        /// Run `PRAGMA quick_check` when opening (cost grows with the file size).
        public var quickCheckOnOpen = false

        public init() {}

        var openFlags: Int32 {
            var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
            if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
            // URI filenames stay off: a path is a path.
            return flags
        }
    }

    /// The `PRAGMA synchronous` levels that keep a WAL database consistent.
    public enum Synchronous: String, Sendable {
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
