import Synchronization

extension DatabaseQueue {
    /// How long a connection may keep its page cache between uses, and the places it needs
    /// one of to keep it at all.
    ///
    /// Why: a connection configured to give its cache back after each transaction (a session
    /// database among thousands) reads every page it touches again at the next one, from the
    /// OS's file cache: about seven pread(2)s per transaction of a session's message, and
    /// SQLite's work to take each page in. A busy connection keeps them instead; with the
    /// file's lock kept between transactions (`Configuration.exclusiveLocking`) no other
    /// connection can change the file meanwhile, so what it keeps stays right. The places
    /// bound the memory that costs, whatever the number of databases, to about their limit
    /// times the cache's size (`Configuration.cacheLimitKiB`); a connection that finds none
    /// free gives its cache back after each use, as configured.
    public struct CacheKeeping: Sendable, Equatable {
        /// How long without a use before a kept cache is given back.
        public var idle: Duration
        /// The places shared by the connections that keep caches together.
        public let places: Places

        public init(idle: Duration, places: Places) {
            self.idle = idle
            self.places = places
        }

        public static func == (lhs: CacheKeeping, rhs: CacheKeeping) -> Bool {
            lhs.idle == rhs.idle && lhs.places === rhs.places
        }

        /// At most `limit` connections keeping their caches at once.
        public final class Places: Sendable {
            public let limit: Int
            private let taken = Atomic<Int>(0)

            public init(limit: Int) { self.limit = max(0, limit) }

            /// Places taken now.
            public var count: Int { taken.load(ordering: .relaxed) }

            func take() -> Bool {
                if taken.add(1, ordering: .relaxed).newValue <= limit { return true }
                taken.subtract(1, ordering: .relaxed)
                return false
            }

            func give() { taken.subtract(1, ordering: .relaxed) }
        }
    }

    /// Whether the connection keeps its page cache now, after the work already submitted (for tests).
    public var keepsCache: Bool {
        get async {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.inUse.withLock { _ in self.idleState.keepsCache }) }
            }
        }
    }

    /// Under `inUse` or before the queue is shared: when cache keeping applies, the queue
    /// decides when the connection gives its cache back, not each transaction.
    func adoptCacheRelease() {
        guard idleClosing?.cacheKeeping != nil, database.configuration.releaseMemoryAfterTransactions else { return }
        database.releasesMemoryAfterTransactions = false
    }

    /// Under `inUse`, after a use: keeps the cache when a place is free, else gives it back now.
    /// Returns whether it took a place now (the cache was not kept before this use).
    func keepOrReleaseCache() -> Bool {
        guard let keeping = idleClosing?.cacheKeeping, database.configuration.releaseMemoryAfterTransactions,
              !idleState.keepsCache else { return false }
        guard keeping.places.take() else {
            database.releaseMemory()
            return false
        }
        idleState.keepsCache = true
        return true
    }

    /// Under `inUse`: gives a kept cache back (idle long enough).
    func releaseKeptCache() {
        guard idleState.keepsCache else { return }
        database.releaseMemory()
        stopKeepingCache()
    }

    /// Under `inUse`: gives the connection's place back (its cache goes with the connection, or was given back).
    func stopKeepingCache() {
        guard idleState.keepsCache else { return }
        idleState.keepsCache = false
        idleClosing?.cacheKeeping?.places.give()
    }
}
