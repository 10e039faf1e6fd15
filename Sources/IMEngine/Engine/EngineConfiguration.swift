import Dispatch
import IMProtocol

/// What an engine needs to run sessions: the environment and where things happen.
public struct EngineConfiguration: Sendable {
    /// The app key: the MQTT user name of every session and the first folder of its database.
    public var appKey: String
    /// The environment's servers, tried in order with `serverStagger` between them.
    public var servers: [ServerAddress]
    /// Where sessions keep their databases (`<dir>/<app key>/<user id>.sqlite`).
    public var dataDirectory: String
    /// Where callbacks and handlers run.
    public var callbacks: CallbackExecutor
    /// The clock of the reconnection policy and heartbeat.
    public var clock: any EngineClock
    public var networkMonitor: NetworkMonitorSetting
    /// Event loop threads shared by every session's sockets.
    public var eventLoopThreads: Int
    /// Threads shared by every session's database work (SQLite calls block).
    public var databaseThreads: Int
    /// With several servers, how long one has to answer before the next is tried too.
    public var serverStagger: Duration
    /// The bound on one server: TCP connect, proxy negotiation and CONNACK.
    public var attemptTimeout: Duration
    /// The bound on fetching a token from a command or URL.
    public var tokenFetchTimeout: Duration
    /// How many CONNACK redirects (0x9C/0x9D) one attempt follows.
    public var maximumRedirects: Int
    /// How many closes right after login in a row are read as a takeover (see
    /// `TakeoverSuspicion`); 0, the default, never reads them so. A network that flaps that
    /// fast looks the same (the soak's faults stopped sessions with the rule on), so the rule
    /// is for servers known to close a taken-over connection silently (stock brokers).
    public var takeoverLimit = 0
    /// A session's database left unused this long gives its file back (two descriptors, and
    /// SQLite's memory for it) and opens it again at the next use, about half a millisecond
    /// of CPU (BENCHMARKS.md); nil keeps it open while the session is. Long enough that a
    /// conversation does not pay it per message. See `DatabaseQueue.IdleClosing`.
    public var databaseIdleClose: Duration? = .seconds(30)
    /// About the most session databases open at once: past it a database closes after each
    /// use. Nil: `defaultOpenDatabaseLimit` of the open-file limit when the engine starts.
    public var openDatabaseLimit: Int?

    /// A fifth of `openFileLimit`, at least 64: an open database holds two descriptors (its
    /// file and its journal), and the sockets need the rest.
    public static func defaultOpenDatabaseLimit(openFileLimit: Int) -> Int {
        max(64, openFileLimit / 5)
    }

    /// The descriptors an open session database holds: its file and its rollback journal.
    public static let descriptorsPerOpenDatabase = 2

    public init(
        appKey: String, servers: [ServerAddress], dataDirectory: String,
        callbacks: CallbackExecutor = .queue(DispatchQueue(label: "imsh.engine.callbacks")),
        clock: any EngineClock = SystemEngineClock(), networkMonitor: NetworkMonitorSetting = .system,
        eventLoopThreads: Int = 2, databaseThreads: Int = 4, serverStagger: Duration = .milliseconds(250),
        attemptTimeout: Duration = .seconds(10), tokenFetchTimeout: Duration = .seconds(10), maximumRedirects: Int = 3
    ) {
        self.appKey = appKey
        self.servers = servers
        self.dataDirectory = dataDirectory
        self.callbacks = callbacks
        self.clock = clock
        self.networkMonitor = networkMonitor
        self.eventLoopThreads = eventLoopThreads
        self.databaseThreads = databaseThreads
        self.serverStagger = serverStagger
        self.attemptTimeout = attemptTimeout
        self.tokenFetchTimeout = tokenFetchTimeout
        self.maximumRedirects = maximumRedirects
    }

    func validate() throws(EngineError) {
        guard !appKey.isEmpty else { throw .invalidParameter("the app key is empty") }
        guard !servers.isEmpty else { throw .invalidParameter("no server address given") }
        guard !dataDirectory.isEmpty else { throw .invalidParameter("the data directory is empty") }
        guard eventLoopThreads >= 1 else { throw .invalidParameter("eventLoopThreads must be at least 1") }
        guard databaseThreads >= 1 else { throw .invalidParameter("databaseThreads must be at least 1") }
        guard openDatabaseLimit.map({ $0 >= 0 }) ?? true, databaseIdleClose.map({ $0 >= .zero }) ?? true else {
            throw .invalidParameter("openDatabaseLimit and databaseIdleClose must not be negative")
        }
        guard attemptTimeout > .zero, tokenFetchTimeout > .zero, serverStagger >= .zero, maximumRedirects >= 0 else {
            throw .invalidParameter("timeouts must be positive, the stagger and redirect limit not negative")
        }
    }
}
