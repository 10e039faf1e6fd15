import CSQLite

/// An ordered list of schema migrations tracked by `PRAGMA user_version`.
///
/// Migration n (0-based) brings the schema from version n to n+1. The ones a file has not
/// seen run together in one immediate transaction with the version bump, so a crash or a
/// throw leaves the database at the version it had, and a new file costs one commit (a
/// process opening thousands of session files at once pays it for each). Never reorder or
/// edit a shipped migration: append new ones.
public struct DatabaseMigrator: Sendable {
    public typealias Migration = @Sendable (Database) throws -> Void

    private var migrations: [(name: String, body: Migration)] = []

    public init() {}

    /// Appends a migration; `name` appears in errors.
    public mutating func register(_ name: String, _ body: @escaping Migration) {
        migrations.append((name, body))
    }

    /// The schema version once every registered migration has run.
    public var latestVersion: Int { migrations.count }

    /// Applies the migrations the database has not seen yet; returns how many ran.
    ///
    /// Throws when the file's version is newer than this program knows (a downgrade).
    @discardableResult
    public func migrate(_ database: Database) throws -> Int {
        // The version is read inside the transaction, so a second process migrating the same
        // file at the same time waits and then finds nothing left to do.
        try database.transaction(.immediate) { database throws -> Int in
            let version = try database.userVersion()
            guard version <= migrations.count else {
                throw DatabaseError(
                    code: SQLITE_ERROR,
                    message: "schema version \(version) is newer than this program knows (\(migrations.count))",
                    path: database.path)
            }
            guard version < migrations.count else { return 0 }
            for migration in migrations[version...] { try migration.body(database) }
            try database.setUserVersion(migrations.count)
            return migrations.count - version
        }
    }
}
