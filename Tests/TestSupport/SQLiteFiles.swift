import Foundation
import IMStore

/// The SQLite files a process left in a directory, examined as an operator would after a crash.
///
/// Every call blocks (sqlite3_step): run it through `offPool` from async tests.
public enum SQLiteFiles {
    /// Every `*.sqlite` file under `directory` (recursively), sorted.
    public static func all(under directory: String) -> [String] {
        guard let names = FileManager.default.enumerator(atPath: directory) else { return [] }
        return names.compactMap { $0 as? String }.filter { $0.hasSuffix(".sqlite") }.map { "\(directory)/\($0)" }.sorted()
    }

    /// What `PRAGMA integrity_check` says of the file: `["ok"]` when it is sound.
    ///
    /// Opening replays a write-ahead log a killed writer left, as the next program to open it would.
    public static func integrityCheck(_ path: String) throws -> [String] {
        try rows(path, "PRAGMA integrity_check").map { $0.first ?? "" }
    }

    /// The number `sql` (a `SELECT count(*)`) returns.
    public static func count(_ path: String, _ sql: String) throws -> Int {
        try rows(path, sql).first.flatMap { $0.first }.flatMap { Int($0) } ?? 0
    }

    /// The rows `sql` returns from the file, each value as text (NULL as "").
    public static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        var configuration = Database.Configuration()
        configuration.create = false
        let database = try Database(path: path, configuration: configuration)
        defer { database.close() }
        return try database.fetchAll(sql).map { row in
            row.values.map { value in value.string ?? value.int64.map(String.init) ?? "" }
        }
    }
}

/// Runs blocking `body` on a thread of its own, so the cooperative pool stays free for servers
/// running in the test process.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
