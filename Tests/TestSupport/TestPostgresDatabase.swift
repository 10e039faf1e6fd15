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

    /// A new empty database on the server `IMSH_TEST_POSTGRES` names, or nil when it is unset.
    public static func fromEnvironment() throws -> String? {
        guard let value = getenv(variable) else { return nil }
        let base = String(cString: value)
        return base.isEmpty ? nil : try create(on: base)
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
