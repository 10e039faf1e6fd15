import IMStore
import IMTransport
import Synchronization

/// An initialized engine's shared parts, handed to each session when it connects.
final class EngineRuntime: Sendable {
    let configuration: EngineConfiguration
    let group: EventLoopGroup
    /// The threads every session's database work runs on.
    let databaseThreads: DatabaseThreads
    /// When session databases give their files back (see `EngineConfiguration.databaseIdleClose`).
    let databaseIdleClosing: DatabaseQueue.IdleClosing?
    /// Database files held by a live session, so two sessions never write one file.
    private let claimedDatabases = Mutex<Set<String>>([])

    init(configuration: EngineConfiguration, group: EventLoopGroup) {
        self.configuration = configuration
        self.group = group
        self.databaseThreads = DatabaseThreads(count: configuration.databaseThreads, label: "imsh.engine.database")
        // Busy session databases keep their page cache between transactions (each saves about
        // seven page reads a transaction, BENCHMARKS.md, issue 17's eleventh step): 512 of them
        // hold at most 32 MiB (64 KiB each, `Database.Configuration.compact`), about 20 in
        // practice. Two seconds covers a conversation's pace; an idle one gives it back.
        databaseIdleClosing = configuration.databaseIdleClose.map {
            DatabaseQueue.IdleClosing(
                after: $0,
                crowd: configuration.openDatabaseLimit ?? EngineConfiguration.defaultOpenDatabaseLimit(openFileLimit: ProcessLimits.openFileLimit),
                cacheKeeping: DatabaseQueue.CacheKeeping(idle: .seconds(2), places: .init(limit: 512)))
        }
    }

    var clock: any EngineClock { configuration.clock }
    var callbacks: CallbackExecutor { configuration.callbacks }

    /// Reserves `path` for one session; false when another holds it.
    func claimDatabase(_ path: String) -> Bool {
        claimedDatabases.withLock { $0.insert(path).inserted }
    }

    func releaseDatabase(_ path: String) {
        _ = claimedDatabases.withLock { $0.remove(path) }
    }
}
