import IMPostgres
import IMProtocol
import Synchronization

/// The IM server's durable state in PostgreSQL, shared by every imserver node that names the
/// same database: the same tables and meaning as `SQLiteServerStore`, so nodes agree on users,
/// devices, messages and queues.
///
/// Work runs on a bounded `PostgresPool` (a thread per connection, off Swift's cooperative
/// pool). Each call is one transaction. Writes that create message ids or device rows first
/// take a transaction-level advisory lock per user they touch (the recipients, the devices'
/// users), in hash order: a device pages its queue with "ids above the last one sent", which a
/// message committed late with a smaller id would slip under, so the messages of one user must
/// become visible in the order of their ids; those of different users go on side by side.
///
/// A lost or refused connection is `ServerStoreError.unavailable`; the pool reconnects on the
/// next call, so service resumes by itself when PostgreSQL is back.
public final class PostgresServerStore: ServerStore {
    /// The database URL without its password.
    public let location: String
    /// This node's name: its presence rows and the notifications it sends carry it.
    public let nodeName: String
    let pool: PostgresPool
    /// The connection string, for the message lane's own connection (`PostgresLaneConnection`).
    let url: String
    /// The pool's size.
    let connections: Int
    /// How often this store moved the change counter itself.
    let ownChanges = Atomic<Int64>(0)

    private init(location: String, nodeName: String, url: String, connections: Int) {
        self.location = location
        self.connections = connections
        self.nodeName = nodeName
        self.url = url
        self.pool = PostgresPool(conninfo: url, size: connections, setup: Self.sessionSettings)
    }

    /// Plans made once per prepared statement (generic), not again at each execution.
    ///
    /// PostgreSQL's default re-plans a prepared statement whenever a plan for the values at
    /// hand looks cheaper than the generic one; for the lane's statements over arrays it always
    /// does (it costs a generic plan for 100 elements an array), so every job planned its queue
    /// read and its acknowledgement afresh: planning was 5.2 % of PostgreSQL's samples at
    /// saturation, 0.04 % with this setting. Their generic plans probe the indexes (checked with
    /// `EXPLAIN ANALYZE` on 30,000 devices and 100,000 queued messages; an autoanalyze of a grown
    /// table re-plans them). The rates did not move beyond the runs' spread (BENCHMARKS.md, issue 42).
    /// A queue that churned can make a whole read look cheaper than probes: the store function
    /// and the acknowledgement of several entries are planned without (`PostgresAcknowledgeFunction`).
    ///
    /// No JIT compilation either: PostgreSQL compiles a statement with LLVM when its plan's
    /// estimated cost passes `jit_above_cost`, which the nodes' generic plans did when they
    /// were made (or re-made after an autoanalyze) on a queue that churned. Every execution
    /// then paid the compilation: on nodes restarted after saturated runs an acknowledgement
    /// took 84-86 ms, LLVM had 72 % of PostgreSQL's samples, and 1,000 messages/s ran at a p50 of
    /// 54-177 ms (issue 42, BENCHMARKS.md). The nodes' statements each touch a few rows, where
    /// compiling never pays.
    static let sessionSettings = "SET plan_cache_mode = force_generic_plan; SET jit = off"

    /// Connects to `url` (a `postgres://` URL or libpq key=value string) with at most
    /// `connections` connections and migrates the schema (nodes starting together take turns).
    ///
    /// - Throws: `cannotOpen` for a URL libpq refuses, a database it cannot reach, or a schema
    ///   newer than this program.
    public static func open(url: String, nodeName: String, connections: Int = 4) async throws(ServerStoreError) -> PostgresServerStore {
        let location = redacted(url)
        if let reason = PostgresConnection.validate(url) {
            throw .cannotOpen(path: location, reason: reason)
        }
        let store = PostgresServerStore(location: location, nodeName: nodeName, url: url, connections: max(1, connections))
        do {
            try await store.pool.run { connection in try PostgresSchema.migrate(connection) }
        } catch {
            await store.close()
            throw .cannotOpen(path: location, reason: "\(error)")
        }
        return store
    }

    public func close() async { await pool.close() }

    /// `url` with any password replaced by `***`, for messages and logs.
    public static func redacted(_ url: String) -> String {
        let words = url.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 1, let schemeEnd = url.firstRange(of: "://") else {
            // key=value form: hide the password's value.
            return words.map { $0.hasPrefix("password=") ? "password=***" : String($0) }.joined(separator: " ")
        }
        let rest = url[schemeEnd.upperBound...]
        guard let at = rest.firstIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    public func externalChangeCounter() async throws(ServerStoreError) -> Int64 {
        try await read("read the change counter") { connection in
            try connection.execute("SELECT value FROM change_counter WHERE id = 1").rows.first?[0].int64 ?? 0
        } - ownChanges.load(ordering: .relaxed)
    }

    // MARK: Running work

    /// Runs `body` again when it failed because its pooled connection had been lost (after a
    /// PostgreSQL restart each idle connection fails once): up to one try per connection and
    /// one fresh one, so a server that is back serves the call, and one that is down fails it
    /// fast (a refused connection costs no wait). A lost connection rolls its transaction
    /// back; only a loss during COMMIT leaves the outcome unknown, and every write here may
    /// run twice (resends are found by cid, registrations and acknowledgements repeat harmlessly).
    static func retryingLostConnections<T>(attempts: Int, _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as PostgresError where error.kind == .connection && attempt < attempts {
                attempt += 1
            }
        }
    }

    /// Runs `body` in one transaction; retried on serialization failures and deadlocks.
    func write<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws(ServerStoreError) -> T {
        try await mapErrors(operation) { try await self.pool.transaction(body) }
    }

    /// Runs `body` as one statement or read-only sequence, outside an explicit transaction.
    func read<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws(ServerStoreError) -> T {
        try await mapErrors(operation) { try await self.pool.run(body) }
    }

    private func mapErrors<T>(_ operation: String, _ body: () async throws -> T) async throws(ServerStoreError) -> T {
        do {
            return try await Self.retryingLostConnections(attempts: connections + 1, body)
        } catch {
            throw Self.storeError(error, operation: operation, location: location)
        }
    }

    /// `values` as one `text[]` parameter: the batched statements take a column per array.
    static func texts(_ values: [String]) -> PostgresValue { .text(PostgresTextArray.literal(values)) }

    /// `values` as one `bigint[]` parameter.
    static func integers(_ values: [Int64]) -> PostgresValue { .text("{" + values.map(String.init).joined(separator: ",") + "}") }

    /// A failure of `operation` as the store reports it: a lost or refused connection is
    /// `unavailable` (worth trying again later), anything else `failed`.
    static func storeError(_ error: any Error, operation: String, location: String) -> ServerStoreError {
        switch error {
        case let error as ServerStoreError:
            return error
        case let error as PostgresError where error.kind == .connection:
            return .unavailable(operation: operation, location: location, reason: error.message)
        case let error as PostgresError:
            return .failed(operation: operation, path: location, reason: error.message)
        default:
            return .failed(operation: operation, path: location, reason: "\(error)")
        }
    }
}
