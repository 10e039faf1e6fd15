import IMPostgres
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Fresh databases on a PostgreSQL server a test names, one per test, so tests running at
/// once never see each other's rows or notifications.
public enum TestPostgresDatabase {
    /// The environment variable holding the server's URL (`scripts/with-postgres` sets it).
    public static let variable = "IMSH_TEST_POSTGRES"
    private static let counter = Atomic<Int>(0)

    /// Whether the environment names a server: tests of SQLite's own behaviour stand aside then.
    public static var isConfigured: Bool {
        guard let value = getenv(variable) else { return false }
        return !String(cString: value).isEmpty
    }
    private static let byDirectory = Mutex<[String: String]>([:])

    /// The database of `directory` on the server `IMSH_TEST_POSTGRES` names (created on first
    /// use, so a test that reopens its directory finds its data), or nil when it is unset.
    public static func fromEnvironment(for directory: String) throws -> String? {
        guard let value = getenv(variable) else { return nil }
        let base = String(cString: value)
        guard !base.isEmpty else { return nil }
        if let known = byDirectory.withLock({ $0[directory] }) { return known }
        let url = try create(on: base)
        byDirectory.withLock { $0[directory] = url }
        return url
    }

    /// Creates a database with a unique name on the server of `baseURL` (a `postgres://` URL
    /// ending in a database name) and returns its URL.
    public static func create(on baseURL: String) throws -> String {
        let number = counter.add(1, ordering: .relaxed).newValue
        let name = "imsh_test_\(getpid())_\(number)_\(UInt32.random(in: 0..<0x10000))"
        let connection = try PostgresConnection.connect(baseURL)
        defer { connection.close() }
        _ = try connection.execute("CREATE DATABASE \(name)")
        guard let slash = baseURL.lastIndex(of: "/") else { throw TestFailure("no database name in \(baseURL)") }
        return baseURL[..<slash] + "/" + name
    }
}
