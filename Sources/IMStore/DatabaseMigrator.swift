import CSQLite

/// An ordered list of schema migrations tracked by `PRAGMA user_version`.
///
/// Migration n (0-based) brings the schema from version n to n+1. The ones a file has not
/// seen run together in one immediate transaction with the version bump, so a crash or a
/// throw leaves the database at the version it had, and a new file costs one commit (a
/// process opening thousands of session files at once pays it for each). Never reorder or
/// edit a shipped migration: append new ones.
///
/// A new, empty file may skip the history: with `registerCurrentSchema` it gets the latest
/// schema in one step, so a process creating thousands of session files does not create
/// tables a later migration drops.
public struct DatabaseMigrator: Sendable {
    public typealias Migration = @Sendable (Database) throws -> Void

    private var migrations: [(name: String, body: Migration)] = []
    private var currentSchema: Migration?

    public init() {}

    /// Appends a migration; `name` appears in errors.
    public mutating func register(_ name: String, _ body: @escaping Migration) {
        migrations.append((name, body))
    }

    /// Sets what creates the latest schema in an empty file (version 0, no tables), in place
    /// of running every migration. It must leave the schema the migrations would: test it
    /// against `historyOnly`. Register it again when a migration is appended.
    public mutating func registerCurrentSchema(_ body: @escaping Migration) {
        currentSchema = body
    }

    /// This migrator without its current schema: every file, new or not, goes through the
    /// whole history. What `registerCurrentSchema`'s body must match.
    public var historyOnly: DatabaseMigrator {
        var copy = self
        copy.currentSchema = nil
        return copy
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
            if version == 0, let currentSchema, try database.fetchOne("SELECT count(*) FROM sqlite_master")?[0] == .integer(0) {
                try currentSchema(database)
            } else {
                for migration in migrations[version...] { try migration.body(database) }
            }
            try database.setUserVersion(migrations.count)
            return migrations.count - version
        }
    }
}
