import IMStore
import IMThreads
import IMTransport

/// The schema upgrade opening a data directory's database will run, read before it runs.
///
/// An upgrade runs before imserver listens, in one transaction, and one of them (version 5)
/// copies the message table: on a large file that is seconds of silence, so imserver says
/// what it is doing first (imserver(8), FILES).
public struct SchemaUpgrade: Sendable, Equatable {
    /// The database file.
    public let path: String
    /// The file's schema version, and the one this program brings it to.
    public let from: Int
    public let to: Int
    /// Messages stored in the file.
    public let messages: Int64

    public init(path: String, from: Int, to: Int, messages: Int64) {
        (self.path, self.from, self.to, self.messages) = (path, from, to, messages)
    }

    /// What opening `directory`'s `server.sqlite` will upgrade; nil when there is no file yet,
    /// it is up to date, or it cannot be read here (opening it then says why). Reads only.
    public static func pending(directory: String) async -> SchemaUpgrade? {
        // What opening refuses it refuses with its reason; this read leaves it alone.
        guard SQLiteServerStore.refusal(of: directory) == nil else { return nil }
        let path = SQLiteServerStore.path(in: directory)
        let latest = SQLiteServerStore.migrator.latestVersion
        // Off Swift's pool: opening and counting block. No migrator: it would refuse the file's
        // version, or bring it up to date.
        let found = await BlockingCall.run { try? read(path, latest: latest) }
        guard let (version, messages) = found, version > 0, version < latest else { return nil }
        return SchemaUpgrade(path: path, from: version, to: latest, messages: messages)
    }

    /// The file's schema version, and its messages when it is older than `latest`.
    private static func read(_ path: String, latest: Int) throws -> (Int, Int64) {
        // Not read-only: a read-only connection cannot open a WAL file whose index is not there.
        var configuration = Database.Configuration()
        configuration.create = false
        configuration.journalMode = nil
        let db = try Database(path: path, configuration: configuration)
        defer { db.close() }
        let version = try db.userVersion()
        guard version > 0, version < latest else { return (version, 0) }
        return (version, try db.fetchOne("SELECT count(*) FROM message")?[0].int64 ?? 0)
    }
}
