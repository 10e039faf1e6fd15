import IMStore

extension SessionDatabase {
    /// Appends a status change to the connection log.
    public func appendLog(_ entry: ConnectionLogEntry) async throws {
        try await queue.write { db in try Self.insert(entry, into: db) }
    }

    /// Appends a status change to the connection log without waiting: entries are written in
    /// the order given, before any later call on this database runs.
    public func appendLogLater(_ entry: ConnectionLogEntry) {
        queue.writeLater { db in try Self.insert(entry, into: db) }
    }

    private static func insert(_ entry: ConnectionLogEntry, into db: Database) throws {
        try db.execute("INSERT INTO connection_log(at, status, code, detail) VALUES (?, ?, ?, ?)",
                       [.integer(entry.at), .integer(Int64(entry.status.rawValue)),
                        DatabaseValue(entry.code?.rawValue), .text(entry.detail)])
    }

    /// The latest `limit` log entries, oldest first.
    public func connectionLog(limit: Int = 100) async throws -> [ConnectionLogEntry] {
        try await queue.read { db in try Self.latestEntries(db, limit: limit) }
    }

    /// The latest `limit` entries of the database file at `path`, oldest first, read through a
    /// read-only connection closed before returning: for reading the log of an account whose
    /// session is elsewhere or gone, without migrating, repairing or holding the file.
    ///
    /// Blocks on disk I/O: call it off the cooperative pool.
    public static func readConnectionLog(path: String, limit: Int) throws -> [ConnectionLogEntry] {
        var configuration = Database.Configuration.compact
        configuration.readOnly = true
        configuration.journalMode = nil
        let database = try Database(path: path, configuration: configuration)
        defer { database.close() }
        return try latestEntries(database, limit: limit)
    }

    private static func latestEntries(_ db: Database, limit: Int) throws -> [ConnectionLogEntry] {
        try db.fetchAll("SELECT at, status, code, detail FROM connection_log ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))])
            .reversed()
            .map { row in
                ConnectionLogEntry(
                    at: row[0].int64 ?? 0, status: ConnectionStatus(rawValue: Int(row[1].int64 ?? -1)),
                    code: row[2].int64.map { ConnectErrorCode(rawValue: Int($0)) }, detail: row[3].string ?? "")
            }
    }
}
