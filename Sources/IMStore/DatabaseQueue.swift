import Dispatch
import Synchronization

/// Owns one `Database` and runs every access to it on its own serial dispatch queue.
///
/// This is how a `Database` crosses concurrency domains: actors (the server, each client
/// session) call `read`/`write` and await, while the blocking sqlite3 calls run on the
/// queue's thread, not on Swift's cooperative pool. Work once submitted runs to the end;
/// task cancellation does not interrupt it.
public final class DatabaseQueue: @unchecked Sendable {
    // Touched only on `queue`, or by `runHereIfFree` while it holds `inUse`: that is the
    // confinement that makes this class Sendable. `idleState` likewise.
    var database: Database
    /// Held around every use of `database`, so that a caller may borrow it when it is idle.
    let inUse = Mutex<Void>(())
    let queue: DispatchQueue
    /// The database file.
    public let path: String
    /// When the connection gives its file back while unused; nil: it stays open until `close`.
    let idleClosing: IdleClosing?
    var idleState = IdleState()

    /// Takes ownership of `database`; the caller must not use it afterwards.
    ///
    /// With `target`, the work runs on that queue's thread (see `DatabaseThreads`), else on
    /// Dispatch's shared pool, which adds threads while work blocks.
    public init(
        _ database: sending Database, label: String = "imsh.database", target: DispatchQueue? = nil,
        idleClosing: IdleClosing? = nil
    ) {
        self.path = database.path
        self.database = database
        self.queue = DispatchQueue(label: label, target: target)
        self.idleClosing = idleClosing
        if idleClosing != nil { Self.openCount.add(1, ordering: .relaxed) }
        adoptCacheRelease()
    }

    deinit {
        if idleClosing != nil && !idleState.isIdleClosed && !idleState.isClosed { Self.openCount.subtract(1, ordering: .relaxed) }
        stopKeepingCache()
    }

    /// Opens `path` on a fresh queue, applies `migrator`, and returns the owner.
    ///
    /// With `recoverCorruption`, a corrupt file is moved aside first (see `openRecovering`);
    /// the moved paths are returned.
    public static func open(
        path: String,
        configuration: Database.Configuration = Database.Configuration(),
        migrator: DatabaseMigrator = DatabaseMigrator(),
        recoverCorruption: Bool = false,
        target: DispatchQueue? = nil,
        idleClosing: IdleClosing? = nil
    ) async throws -> (queue: DatabaseQueue, movedAside: [String]) {
        let opener = target ?? DispatchQueue(label: "imsh.database.open")
        let (queue, moved): (DatabaseQueue, [String]) = try await withCheckedThrowingContinuation { continuation in
            opener.async {
                continuation.resume(with: Result {
                    let (database, moved) = recoverCorruption
                        ? try Database.openRecovering(path: path, configuration: configuration)
                        : (try Database(path: path, configuration: configuration), [])
                    try migrator.migrate(database)
                    let queue = DatabaseQueue(database, target: target, idleClosing: idleClosing)
                    // Opening was a use: in a crowd the file goes back at once.
                    queue.inUse.withLock { _ in queue.used() }
                    return (queue, moved)
                })
            }
        }
        return (queue, moved)
    }

    /// Runs `body` inside an immediate transaction; rolls back when it throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run { database in try database.transaction(.immediate, body) }
    }

    /// Runs `body` inside a deferred transaction, so it reads one consistent snapshot.
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await run { database in try database.transaction(.deferred, body) }
    }

    /// Queues `body` to run inside an immediate transaction without waiting for it; a failure
    /// rolls it back and is dropped. Later calls on this queue run after it, so a following
    /// `read` sees what it wrote.
    public func writeLater(_ body: @escaping @Sendable (Database) throws -> Void) {
        queue.async {
            _ = try? self.borrow { try $0.transaction(.immediate, body) }
        }
    }

    /// Queues `body` with the bare connection after `delay`, without waiting for it; work
    /// submitted meanwhile runs first. After `close()` its statements fail with `misuse`.
    public func runLater(after delay: Duration, _ body: @escaping @Sendable (Database) -> Void) {
        let nanoseconds = Int((min(max(delay, .zero), .seconds(86_400)) / .nanoseconds(1)).rounded())
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            try? self.borrow(body)
        }
    }

    /// Runs `body` with the bare connection: no transaction is opened for it.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            run(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` with the bare connection and hands its outcome to `completion` on the
    /// queue's thread: for a caller that is not a task (an event loop), which then needs no
    /// task to wake to learn it.
    public func run<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, then completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        queue.async {
            completion(Result { try self.borrow(body) })
        }
    }

    /// Runs `body` on the calling thread, now, when no other work is using the connection;
    /// nil at once when some is. It may run ahead of work queued and not yet started.
    ///
    /// For an event loop with a short write to make: doing it itself costs less than waking
    /// this queue's thread and then being woken for the answer. Blocks that thread for the
    /// write, so it is for work that does not wait on other connections' locks. Nil too when
    /// idle closing closed the file: opening it again is the queue's work.
    public func runHereIfFree<T>(_ body: (Database) throws -> T) rethrows -> T? {
        let outcome = try inUse.withLockIfAvailable { _ -> T? in
            guard !idleState.isIdleClosed else { return nil }
            defer { used() }
            return try body(database)
        }
        return outcome ?? nil
    }

    /// Runs `body` with the connection, opening the file again if idle closing closed it;
    /// that open's failure is thrown.
    private func borrow<T>(_ body: (Database) throws -> T) throws -> T {
        try inUse.withLock { _ in
            try reopenIfIdleClosed()
            defer { used() }
            return try body(database)
        }
    }

    /// Closes the connection after the work already submitted; later calls fail with `misuse`.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.inUse.withLock { _ in self.closeForGood() }
                continuation.resume()
            }
        }
    }
}
