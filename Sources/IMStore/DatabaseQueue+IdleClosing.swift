import Dispatch
import Synchronization

extension DatabaseQueue {
    /// When a connection gives its file back while unused: `after` that long without a use,
    /// or at once after each use while more than `crowd` connections with idle closing are
    /// open in the process. The next use opens the file again.
    ///
    /// For many small databases of which few are busy at a time (a session engine's): an
    /// open file holds a descriptor, of which a process has a fixed number, and SQLite's
    /// memory for the connection. Opening again costs an open(2), locks and a reread of the
    /// schema, a fraction of a millisecond; `crowd` bounds the open files, whatever the
    /// number of databases, to about `crowd` plus those in use at that moment. The file is
    /// opened again without creating it: one removed meanwhile fails instead of coming back
    /// empty.
    public struct IdleClosing: Sendable, Equatable {
        public var after: Duration
        public var crowd: Int
        /// For a connection that gives its page cache back after each transaction
        /// (`Database.Configuration.releaseMemoryAfterTransactions`): when it may keep it
        /// while busy instead. Nil: it gives it back at once, as configured.
        public var cacheKeeping: CacheKeeping?

        public init(after: Duration, crowd: Int, cacheKeeping: CacheKeeping? = nil) {
            self.after = after
            self.crowd = max(0, crowd)
            self.cacheKeeping = cacheKeeping
        }
    }

    /// Connections with idle closing open now, in this process.
    static let openCount = Atomic<Int>(0)

    /// Whether the file is open, and when it was last used. Under `inUse`.
    struct IdleState {
        /// Idle closing closed the file; the next use opens it again.
        var isIdleClosed = false
        /// `close()` ran: nothing opens it again.
        var isClosed = false
        var lastUse: UInt64 = 0
        /// A check for idleness is queued.
        var checkQueued = false
        /// The connection keeps its page cache between uses, holding one of its
        /// `CacheKeeping.Places` (see `keepOrReleaseCache`).
        var keepsCache = false
    }

    /// Whether idle closing has given the file back now, after the work already submitted (for tests).
    public var isIdleClosed: Bool {
        get async {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.inUse.withLock { _ in self.idleState.isIdleClosed }) }
            }
        }
    }

    /// Under `inUse`: opens the file again when idle closing closed it.
    func reopenIfIdleClosed() throws(DatabaseError) {
        guard idleState.isIdleClosed, !idleState.isClosed else { return }
        var configuration = database.configuration
        configuration.create = false
        database = try Database(path: path, configuration: configuration)
        adoptCacheRelease()
        idleState.isIdleClosed = false
        Self.openCount.add(1, ordering: .relaxed)
    }

    /// Under `inUse`, after each use: closes at once in a crowd, else makes sure a check
    /// for idleness is queued.
    func used() {
        guard let idleClosing, !idleState.isClosed, !idleState.isIdleClosed else { return }
        if Self.openCount.load(ordering: .relaxed) > idleClosing.crowd { return closeWhileIdle() }
        idleState.lastUse = DispatchTime.now().uptimeNanoseconds
        keepOrReleaseCache()
        guard !idleState.checkQueued else { return }
        queueIdleCheck(after: nextCheck(idleFor: .zero, closing: idleClosing))
    }

    /// Under `inUse`: closes the file for good (`close()`).
    func closeForGood() {
        if !idleState.isIdleClosed && !idleState.isClosed {
            stopKeepingCache()
            database.close()
            if idleClosing != nil { Self.openCount.subtract(1, ordering: .relaxed) }
        }
        idleState.isClosed = true
    }

    private func queueIdleCheck(after delay: Duration) {
        idleState.checkQueued = true
        let nanoseconds = Int((max(delay, .milliseconds(1)) / .nanoseconds(1)).rounded())
        // One pending check per connection, not one per use: a busy file costs a timer per
        // `after`, not per transaction.
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { self.checkIdle() }
    }

    private func checkIdle() {
        inUse.withLock { _ in
            idleState.checkQueued = false
            guard let idleClosing, !idleState.isClosed, !idleState.isIdleClosed else { return }
            let idleFor = Duration.nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- idleState.lastUse))
            if idleFor >= idleClosing.after {
                closeWhileIdle()
            } else {
                if let keeping = idleClosing.cacheKeeping, idleFor >= keeping.idle { releaseKeptCache() }
                queueIdleCheck(after: nextCheck(idleFor: idleFor, closing: idleClosing))
            }
        }
    }

    /// How long until the next thing idleness does: give the kept cache back, or close.
    private func nextCheck(idleFor: Duration, closing: IdleClosing) -> Duration {
        let untilClose = closing.after - idleFor
        guard idleState.keepsCache, let keeping = closing.cacheKeeping else { return untilClose }
        return min(untilClose, max(.zero, keeping.idle - idleFor))
    }

    private func closeWhileIdle() {
        stopKeepingCache()
        database.close()
        idleState.isIdleClosed = true
        Self.openCount.subtract(1, ordering: .relaxed)
    }
}
