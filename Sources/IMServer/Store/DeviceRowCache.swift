import IMStore

/// The `device` rows of the users one connection stored messages for or took acknowledgements
/// from, kept from one of its write transactions to the next while no other connection writes.
///
/// Why: at light load each message and each acknowledgement is a transaction of its own, and
/// looking the rows up was a statement each (BENCHMARKS.md, issue 17's tenth step). Why it
/// stays right: rows change only through a commit. The owner calls `begin` once its write
/// transaction holds the lock, and everything is forgotten when the file's data version
/// (`Database.dataVersion`) is not the one its own last commit left, that is when another
/// connection (a login registering a device, the server API, `imserver app` in another
/// process) committed in between. A rolled-back transaction may have inserted a placeholder
/// that is gone: the owner calls `forget`.
final class DeviceRowCache {
    /// A user's rows: real devices, or only the placeholder, or none.
    typealias Rows = [(id: Int64, deviceID: String)]

    /// Past this many users everything is forgotten, so a server that sees millions of users
    /// does not keep them all; the next transactions read their rows again.
    static let userLimit = 50_000

    private var rowsByUser: [UserKey: Rows] = [:]
    /// The data version after the owner's last commit; nil when nothing may be trusted.
    private var versionAfterLastCommit: UInt32?

    init() {}

    /// Checks the cache at the start of a write transaction (after `BEGIN IMMEDIATE`, so the
    /// connection has seen every earlier commit of others).
    func begin(_ db: Database) {
        guard let version = db.dataVersion, version == versionAfterLastCommit else { return forget() }
    }

    /// Notes the data version the owner's commit left.
    func committed(_ db: Database) {
        versionAfterLastCommit = db.dataVersion
    }

    /// Drops every row and the version: after a rollback, or when unsure.
    func forget() {
        rowsByUser = [:]
        versionAfterLastCommit = nil
    }

    subscript(user: UserKey) -> Rows? {
        get { rowsByUser[user] }
        set {
            if newValue != nil, rowsByUser[user] == nil, rowsByUser.count >= Self.userLimit { rowsByUser = [:] }
            rowsByUser[user] = newValue
        }
    }
}
