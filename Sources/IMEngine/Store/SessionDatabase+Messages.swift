import IMStore

extension SessionDatabase {
    static let messageColumns = "id, uid, cid, direction, peer, text, sent_at, state"

    /// Stores a delivered message unless its uid is already there; returns whether it was new.
    ///
    /// Returns only after the commit, so the caller may acknowledge the message to the server.
    public func storeIncoming(uid: String, from peer: String, text: String, cid: String?, sentAt: Int64) async throws -> Bool {
        try await receive(uid: uid, from: peer, text: text, cid: cid, sentAt: sentAt) != nil
    }

    /// Stores an incoming message once per uid; nil when this uid was stored before.
    public func receive(uid: String, from peer: String, text: String, cid: String?, sentAt: Int64) async throws -> StoredMessage? {
        try await receive([Incoming(uid: uid, from: peer, text: text, cid: cid, sentAt: sentAt)])[0]
    }

    /// Stores incoming messages in one transaction, each once per uid; the result holds nil
    /// where a uid was stored before. A burst that arrived together costs one commit.
    public func receive(_ messages: [Incoming]) async throws -> [StoredMessage?] {
        try await withCheckedThrowingContinuation { continuation in
            receive(messages) { continuation.resume(with: $0) }
        }
    }

    /// The same, handing the outcome to `completion` on the database's thread (see
    /// `SessionInbox`, which acknowledges from there).
    func receive(_ messages: [Incoming], then completion: @escaping @Sendable (Result<[StoredMessage?], any Error>) -> Void) {
        write({ db in try Self.insert(messages, db) }, then: completion)
    }

    /// The same on the calling thread when that needs no wait (see `writeHere`); nil otherwise.
    func receiveHere(_ messages: [Incoming]) -> [StoredMessage?]? {
        writeHere { db in try Self.insert(messages, db) }
    }

    private static func insert(_ messages: [Incoming], _ db: Database) throws -> [StoredMessage?] {
        try messages.map { message -> StoredMessage? in
            try db.execute("""
                INSERT INTO message(uid, cid, direction, peer, text, sent_at, state) VALUES (?, ?, 0, ?, ?, ?, 0)
                ON CONFLICT(uid) DO NOTHING
                """, [.text(message.uid), DatabaseValue(message.cid), .text(message.peer), .text(message.text),
                      .integer(message.sentAt)])
            guard db.changes > 0 else { return nil }
            return StoredMessage(
                id: db.lastInsertRowID, uid: message.uid, cid: message.cid, direction: .incoming, peer: message.peer,
                text: message.text, sentAt: message.sentAt, state: .received)
        }
    }

    /// Records a message this account is sending, before it goes on the wire.
    public func enqueueOutgoing(cid: String, to peer: String, text: String, at: Int64) async throws -> StoredMessage {
        try await enqueueOutgoing([Outgoing(cid: cid, to: peer, text: text, at: at)])[0]
    }

    /// Records several outgoing messages in one transaction, in order.
    public func enqueueOutgoing(_ messages: [Outgoing]) async throws -> [StoredMessage] {
        try await write { db in try Self.insert(messages, db) }
    }

    /// The same, handing the outcome to `completion` on the database's thread (see
    /// `SessionOutbox`, which publishes from there).
    func enqueueOutgoing(_ messages: [Outgoing], then completion: @escaping @Sendable (Result<[StoredMessage], any Error>) -> Void) {
        write({ db in try Self.insert(messages, db) }, then: completion)
    }

    /// The same on the calling thread when that needs no wait (see `writeHere`); nil otherwise.
    func enqueueOutgoingHere(_ messages: [Outgoing]) -> [StoredMessage]? {
        writeHere { db in try Self.insert(messages, db) }
    }

    private static func insert(_ messages: [Outgoing], _ db: Database) throws -> [StoredMessage] {
        try messages.map { message in
            try db.execute("""
                INSERT INTO message(cid, direction, peer, text, sent_at, state) VALUES (?, 1, ?, ?, ?, 1)
                """, [.text(message.cid), .text(message.peer), .text(message.text), .integer(message.at)])
            return StoredMessage(
                id: db.lastInsertRowID, uid: nil, cid: message.cid, direction: .outgoing, peer: message.peer, text: message.text,
                sentAt: message.at, state: .pending)
        }
    }

    /// Outgoing messages the server has not acknowledged, oldest first: resent after reconnection.
    public func pendingOutgoing() async throws -> [StoredMessage] {
        try await read { db in
            // Once per connection: not worth a compiled statement kept for the session's lifetime.
            try db.fetchOnce("SELECT \(Self.messageColumns) FROM message WHERE direction = 1 AND state = 1 ORDER BY id")
                .map(Self.message)
        }
    }

    /// The latest `limit` messages, with `peer` only when given, oldest first.
    public func history(peer: String? = nil, limit: Int = 50) async throws -> [StoredMessage] {
        try await read { db in try Self.latestMessages(db, peer: peer, limit: limit) }
    }

    /// The latest `limit` messages (`peer`'s only when given) of the database file at `path`,
    /// oldest first, through a read-only connection closed before returning: the history of an
    /// account that has no session, without migrating, repairing or holding the file.
    ///
    /// Blocks on disk I/O: call it off the cooperative pool.
    public static func readHistory(path: String, peer: String?, limit: Int) throws -> [StoredMessage] {
        var configuration = Database.Configuration.compact
        configuration.readOnly = true
        configuration.journalMode = nil
        let database = try Database(path: path, configuration: configuration)
        defer { database.close() }
        return try latestMessages(database, peer: peer, limit: limit)
    }

    private static func latestMessages(_ db: Database, peer: String?, limit: Int) throws -> [StoredMessage] {
        let rows = if let peer {
            try db.fetchAll("SELECT \(messageColumns) FROM message WHERE peer = ? ORDER BY id DESC LIMIT ?",
                            [.text(peer), .integer(Int64(limit))])
        } else {
            try db.fetchAll("SELECT \(messageColumns) FROM message ORDER BY id DESC LIMIT ?", [.integer(Int64(limit))])
        }
        return rows.reversed().map(message)
    }

    /// How many messages are stored with a given uid (the tests' check for exactly-once).
    public func count(uid: String) async throws -> Int {
        try await queue.read { db in
            Int(try db.fetchOne("SELECT count(*) FROM message WHERE uid = ?", [.text(uid)])?[0].int64 ?? 0)
        }
    }

    private static func message(_ row: Row) -> StoredMessage {
        StoredMessage(
            id: row[0].int64 ?? 0, uid: row[1].string, cid: row[2].string,
            direction: StoredMessage.Direction(rawValue: Int(row[3].int64 ?? 0)) ?? .incoming,
            peer: row[4].string ?? "", text: row[5].string ?? "", sentAt: row[6].int64 ?? 0,
            state: StoredMessage.State(rawValue: Int(row[7].int64 ?? 0)) ?? .received)
    }
}
