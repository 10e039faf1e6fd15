import CSQLite

/// An ordered list of schema migrations tracked by `PRAGMA user_version`.
///
/// Migration n (0-based) brings the schema from version n to n+1. Each runs in its own
/// immediate transaction together with the version bump, so a crash or a throw leaves the
/// database at the last complete version. Never reorder or edit a shipped migration:
/// append new ones.
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
        var applied = 0
        // The version is read inside each transaction so a second process migrating the
        // same file at the same time cannot apply a step twice.
        while try database.transaction(.immediate, { database throws -> Bool in
            let version = try database.userVersion()
            guard version < migrations.count else {
                if version > migrations.count {
                    throw DatabaseError(
                        code: SQLITE_ERROR,
                        message: "schema version \(version) is newer than this program knows (\(migrations.count))",
                        path: database.path)
                }
                return false
            }
            try migrations[version].body(database)
            try database.setUserVersion(version + 1)
            return true
        }) {
            applied += 1
        }
        return applied
    }
}
