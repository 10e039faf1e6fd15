import Foundation
import IMPostgres
import Synchronization
import TestSupport

/// A test's own PostgreSQL server in a temporary directory, stopped when released.
final class PostgresServer: Sendable {
    let directory = TemporaryDirectory(prefix: "imsh-pg")
    let stock: StockPostgres

    private init() throws {
        stock = try StockPostgres(directory: directory.path)
    }

    /// A new server, started off the cooperative pool (`StockPostgres.start`).
    static func start() async throws -> PostgresServer {
        try await offPool { try PostgresServer() }
    }

    deinit { stock.stop() }

    /// `body`'s result on a fresh connection to `conninfo` (the server's URL by default), run
    /// off the cooperative pool, since every libpq call blocks.
    func withConnection<T: Sendable>(
        _ conninfo: String? = nil, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let url = conninfo ?? stock.url
        return try await offPool {
            let connection = try PostgresConnection.connect(url)
            defer { connection.close() }
            return try body(connection)
        }
    }
}

/// Polls `condition` until it holds; false if it still does not after `limit`.
func waitUntil(within limit: Duration = .seconds(10), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A count shared by the closures of a test.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    private let highest = Atomic<Int>(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        let now = count.add(1, ordering: .relaxed).newValue
        highest.max(now, ordering: .relaxed)
        return now
    }

    func decrement() { count.subtract(1, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
    /// The highest count reached.
    var peak: Int { highest.load(ordering: .relaxed) }
}
