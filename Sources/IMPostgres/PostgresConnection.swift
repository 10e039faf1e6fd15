import CPQ
#if canImport(Glibc)
import Glibc
#endif

/// One libpq connection. Not Sendable: owned by one thread at a time, and every call blocks
/// that thread until the server answers, but for the non-blocking calls of
/// `PostgresConnection+NonBlocking.swift`, for an owner that waits on the socket itself.
///
/// Connections use UTF-8, name themselves `imserver` in pg_stat_activity, give up connecting
/// after `defaultConnectTimeout` seconds, probe an idle TCP connection after 30 s, and are ended
/// by the server when idle in a transaction for `idleInTransactionTimeout` seconds, unless the
/// connection string says otherwise. Server notices are dropped rather than printed.
public final class PostgresConnection {
    /// The libpq connection; nil once closed.
    var handle: OpaquePointer?
    /// The statements prepared on this connection (`execute(prepared:)`), by their text.
    var prepared: [String: String] = [:]
    /// The statement sent in non-blocking mode and not answered yet (`send(prepared:_:)`).
    var inFlight: InFlight?

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { close() }

    /// Seconds a connection attempt may take unless the connection string sets `connect_timeout`:
    /// libpq's default is to wait forever for a host that does not answer.
    public static let defaultConnectTimeout = 10

    /// Seconds the server lets a transaction wait for the client's next statement before it
    /// ends the session (idle_in_transaction_session_timeout), releasing its locks. The
    /// callers' transactions run their statements back to back: one idle this long has a
    /// client that is frozen or cut off, and every connection that needs its rows (another
    /// node's heartbeat, its logins) would wait for as long as that lasted.
    public static let idleInTransactionTimeout = 5

    /// Connects with `conninfo`, a `postgres://` URI or `key=value` words (PQconnectdbParams).
    public static func connect(_ conninfo: String) throws(PostgresError) -> PostgresConnection {
        // Later keywords win over earlier ones, and the expanded string comes last: its own
        // client_encoding or application_name replaces these defaults.
        // TCP keepalives after 30 s idle: a LISTEN connection the network dropped without a word
        // is found dead within a minute instead of the system's two hours.
        let keywords = ["client_encoding", "application_name", "connect_timeout", "keepalives_idle", "keepalives_interval",
                        "keepalives_count", "options", "dbname"]
        let values = ["UTF8", "imserver", String(defaultConnectTimeout), "30", "10", "3",
                      "-c idle_in_transaction_session_timeout=\(idleInTransactionTimeout)s", conninfo]
        let handle = withCStrings(keywords) { keywords in
            withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle else { throw PostgresError(kind: .connection, message: "out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let error = PostgresError(kind: .connection, message: trimmed(PQerrorMessage(handle)))
            PQfinish(handle)
            throw error
        }
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        return PostgresConnection(handle: handle)
    }

    /// Connects as `connect(_:)` does, then runs `setup` (such as `SET` statements) unless nil;
    /// a connection `setup` fails on is closed and its error thrown.
    public static func connect(_ conninfo: String, setup: String?) throws(PostgresError) -> PostgresConnection {
        let connection = try connect(conninfo)
        do throws(PostgresError) {
            if let setup { try connection.executeScript(setup) }
        } catch {
            connection.close()
            throw error
        }
        return connection
    }

    /// nil when libpq accepts `conninfo`'s syntax and keywords, else libpq's reason: for
    /// reporting a bad option before any connection is tried.
    public static func validate(_ conninfo: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &message) else {
            defer { if let message { PQfreemem(message) } }
            return message.map { trimmed($0) } ?? "out of memory"
        }
        PQconninfoFree(options)
        return nil
    }

    /// Runs one statement with `parameters` for `$1`...`$n` (PQexecParams, results in text).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        let handle = try open()
        let encoded = parameters.map(EncodedParameter.init)
        defer { encoded.forEach { $0.free() } }
        let values = encoded.map { UnsafePointer($0.pointer) }
        let lengths = encoded.map(\.length)
        let formats = encoded.map(\.format)
        let types = encoded.map(\.type)
        let result = PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 0)
        defer { PQclear(result) }
        try check(result)
        return Self.read(result!)
    }

    /// Runs `sql`, which may hold several statements separated by semicolons (PQexec): a schema,
    /// a migration. Takes no parameters and returns no rows.
    public func executeScript(_ sql: String) throws(PostgresError) {
        let result = PQexec(try open(), sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Whether the connection is usable: PQstatus is CONNECTION_OK after reading whatever the
    /// server already sent, so a connection the server closed (a restart) reads as broken at
    /// once rather than at its next statement.
    public var isHealthy: Bool {
        guard let handle else { return false }
        // A server that ends a backend sends its last message and closes: the first read takes
        // the message, a later one meets the end of the stream and marks the connection bad.
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        for _ in 0..<4 where PQstatus(handle) == CONNECTION_OK && descriptor.fd >= 0 && poll(&descriptor, 1, 0) > 0 {
            guard PQconsumeInput(handle) == 1 else { break }
        }
        return PQstatus(handle) == CONNECTION_OK
    }

    /// The value in effect for connection option `keyword` (`host`, `port`, `dbname`,
    /// `connect_timeout`...), nil when unset or unknown or the connection is closed (PQconninfo).
    public func option(_ keyword: String) -> String? {
        guard let handle, let options = PQconninfo(handle) else { return nil }
        defer { PQconninfoFree(options) }
        var entry = options
        while let name = entry.pointee.keyword {
            if String(cString: name) == keyword { return entry.pointee.val.map { String(cString: $0) } }
            entry += 1
        }
        return nil
    }

    /// Runs one statement as `execute` does, prepared on this connection the first time it
    /// is run here (PQprepare, then PQexecPrepared): PostgreSQL parses and plans it once, not
    /// at every call, which for a statement of several joins and CTEs run for every message
    /// was most of its cost. Parameter types are those of the first call (inferred by the
    /// server but for bytes): use it for statements whose parameters keep their kinds.
    @discardableResult
    public func execute(prepared sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> PostgresResult {
        let handle = try open()
        let encoded = parameters.map(EncodedParameter.init)
        defer { encoded.forEach { $0.free() } }
        let name: String
        if let known = prepared[sql] {
            name = known
        } else {
            name = preparedName
            let result = PQprepare(handle, name, sql, Int32(parameters.count), encoded.map(\.type))
            defer { PQclear(result) }
            try check(result)
            prepared[sql] = name
        }
        let values = encoded.map { UnsafePointer($0.pointer) }
        let result = PQexecPrepared(handle, name, Int32(parameters.count), values, encoded.map(\.length), encoded.map(\.format), 0)
        defer { PQclear(result) }
        try check(result)
        return Self.read(result!)
    }

    /// The name the next statement prepared here gets.
    var preparedName: String { "imsh_\(prepared.count + 1)" }

    /// Closes the connection; later statements throw a connection error.
    public func close() {
        if let handle { PQfinish(handle) }
        handle = nil
    }

    /// The open handle, or a connection error after `close()`.
    func open() throws(PostgresError) -> OpaquePointer {
        guard let handle else { throw PostgresError(kind: .connection, message: "connection closed") }
        return handle
    }

    /// Throws the error `result` carries: a query error with its SQLSTATE, or a connection error
    /// when the connection broke (no result, or PQstatus bad after it).
    func check(_ result: OpaquePointer?) throws(PostgresError) {
        switch result.map(PQresultStatus) {
        case PGRES_COMMAND_OK?, PGRES_TUPLES_OK?, PGRES_EMPTY_QUERY?:
            return
        default:
            // A FATAL error ends the session: a non-blocking caller may read it before libpq
            // has met the end of the stream and marked the connection bad.
            let severity = result.flatMap { PQresultErrorField($0, Self.severityField) }.map { String(cString: $0) }
            let connectionLost = handle.map { PQstatus($0) != CONNECTION_OK } ?? true || severity == "FATAL" || severity == "PANIC"
            let resultMessage = result.map { Self.trimmed(PQresultErrorMessage($0)) } ?? ""
            let message = !resultMessage.isEmpty ? resultMessage : handle.map { Self.trimmed(PQerrorMessage($0)) } ?? "connection closed"
            let code = result.flatMap { PQresultErrorField($0, Self.sqlStateField) }.map { SQLState(rawValue: String(cString: $0)) }
            throw PostgresError(kind: connectionLost ? .connection : .query, sqlState: code, message: message)
        }
    }

    /// The rows, column names and affected count of a successful result.
    static func read(_ result: OpaquePointer) -> PostgresResult {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        let rows = (0..<rowCount).map { row in
            PostgresRow(cells: (0..<columnCount).map { column in
                PQgetisnull(result, row, column) == 1 ? PostgresCell(string: nil)
                    : PostgresCell(string: String(cString: PQgetvalue(result, row, column)))
            })
        }
        return PostgresResult(rows: rows, affectedRows: Int(String(cString: PQcmdTuples(result))) ?? 0, columns: columns)
    }

    /// PG_DIAG_SQLSTATE and PG_DIAG_SEVERITY_NONLOCALIZED, character macros Swift does not import.
    private static let sqlStateField = Int32(UInt8(ascii: "C")), severityField = Int32(UInt8(ascii: "V"))

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        var text = String(cString: message)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    /// Calls `body` with `strings` as a NULL-terminated C array of C strings, valid during the call.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
