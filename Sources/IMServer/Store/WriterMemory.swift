import IMStore

/// What one connection's `MessageWriter`s learned of the file, kept from one of its write
/// transactions to the next while no other connection writes: users' device rows, senders'
/// queued usage, the next message id, and the messages it queued for one device only.
///
/// Why: at light load each message and each acknowledgement is a transaction of its own, and
/// reading these again cost a statement each: keeping them took about 7 us of imserver's CPU
/// off a message at 5,000/s (BENCHMARKS.md, issue 17's tenth step).
///
/// Why it stays right: the file changes only through commits. The owner calls `begin` once
/// its write transaction holds the lock, and everything is forgotten when the file's data
/// version (`Database.dataVersion`) is not the one its own last commit left, that is when
/// another connection (a login registering a device, the server API, a purge, `imserver app`
/// in another process) committed in between; and the owner calls `forget` when a transaction
/// rolls back, since what it learned may be undone. A fresh memory knows nothing, so a writer
/// given one reads everything from the file.
final class WriterMemory {
    /// A user's rows: real devices, or only the placeholder, or none.
    typealias Rows = [(id: Int64, deviceID: String)]

    /// Past this many entries a table is emptied, so that a server that sees millions of
    /// users or keeps many messages queued does not remember them all.
    static let entryLimit = 50_000

    private var rowsByUser: [UserKey: Rows] = [:]
    /// Each sender's `queued_usage` row as the last commit left it; only senders read.
    private var usageBySender: [UserKey: QueueUsage] = [:]
    /// Messages queued for exactly one device and not acknowledged since: their sender and
    /// size, so that the acknowledgement that empties that queue entry releases them without
    /// asking the file whether another queue still holds them (none can: queue entries are
    /// only made when a message is stored).
    private var onlyQueuedOnce: [Int64: (sender: UserKey, bytes: Int)] = [:]
    /// One past the id of the last message stored, which is the largest in the file.
    var nextMessageID: Int64?
    /// The data version after the owner's last commit; nil when nothing may be trusted.
    private var versionAfterLastCommit: UInt32?

    init() {}

    /// Checks the memory at the start of a write transaction (after `BEGIN IMMEDIATE`, so the
    /// connection has seen every earlier commit of others).
    func begin(_ db: Database) {
        guard let version = db.dataVersion, version == versionAfterLastCommit else { return forget() }
    }

    /// Notes the data version the owner's commit left.
    func committed(_ db: Database) {
        versionAfterLastCommit = db.dataVersion
    }

    /// Drops everything: after a rollback, or when unsure.
    func forget() {
        rowsByUser = [:]
        usageBySender = [:]
        onlyQueuedOnce = [:]
        nextMessageID = nil
        versionAfterLastCommit = nil
    }

    func rows(of user: UserKey) -> Rows? { rowsByUser[user] }

    func remember(_ rows: Rows, of user: UserKey) {
        Self.put(rows, for: user, in: &rowsByUser)
    }

    func usage(of sender: UserKey) -> QueueUsage? { usageBySender[sender] }

    func remember(_ usage: QueueUsage, of sender: UserKey) {
        Self.put(usage, for: sender, in: &usageBySender)
    }

    func rememberQueuedOnce(_ messageID: Int64, sender: UserKey, bytes: Int) {
        Self.put((sender, bytes), for: messageID, in: &onlyQueuedOnce)
    }

    /// The sender and size of a message queued once, which its acknowledgement takes out of
    /// every queue; nil when not known so.
    func takeQueuedOnce(_ messageID: Int64) -> (sender: UserKey, bytes: Int)? {
        onlyQueuedOnce.removeValue(forKey: messageID)
    }

    /// Sets `table[key]`, first emptying a table that is full (`entryLimit`) and lacks the key.
    private static func put<Key: Hashable, Value>(_ value: Value, for key: Key, in table: inout [Key: Value]) {
        if table[key] == nil, table.count >= entryLimit { table = [:] }
        table[key] = value
    }
}
