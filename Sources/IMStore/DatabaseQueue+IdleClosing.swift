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
        /// When the queued check for idleness is due (uptime nanoseconds); nil when none is.
        /// A check whose time is not this one was superseded by an earlier one and does nothing.
        var checkDue: UInt64?
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
        let now = DispatchTime.now().uptimeNanoseconds
        idleState.lastUse = now
        let tookPlace = keepOrReleaseCache()
        // One pending check per connection, not one per use: a busy file costs a timer per
        // `after` (or per kept cache's `idle`), not per transaction. Only a cache kept anew may
        // need a check sooner than the one queued (for closing, after it was given back).
        if idleState.checkDue != nil && !tookPlace { return }
        let wanted = nextCheck(idleFor: .zero, closing: idleClosing)
        if let due = idleState.checkDue, due <= now &+ Self.nanoseconds(wanted) { return }
        queueIdleCheck(after: wanted)
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

    /// A check's delay, from a millisecond to a day (a longer wait is checked again then).
    private static func nanoseconds(_ delay: Duration) -> UInt64 {
        UInt64((min(max(delay, .milliseconds(1)), .seconds(86_400)) / .nanoseconds(1)).rounded())
    }

    private func queueIdleCheck(after delay: Duration) {
        let nanoseconds = Self.nanoseconds(delay)
        let due = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        idleState.checkDue = due
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { self.checkIdle(due: due) }
    }

    private func checkIdle(due: UInt64) {
        inUse.withLock { _ in
            guard idleState.checkDue == due else { return }
            idleState.checkDue = nil
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
