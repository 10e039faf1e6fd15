import IMStore

extension SessionDatabase {
    /// Records the server's answers to outgoing messages (stored: sent; refused: failed) with
    /// the next transaction, or alone within `markPatience` (1 s unless `open` was told otherwise: a session that sends a message a second or more writes no mark alone).
    ///
    /// Returns at once: a PUBACK costs no commit of its own. Every read of the messages
    /// (`pendingOutgoing`, `history`) and `close()` write the waiting marks first, so what this
    /// session reads is up to date. A process killed before they are written sends those
    /// messages again after its restart with the same cid, and the server answers without
    /// delivering them twice while it holds them (its app's offline retention; imsh-protocol(7)).
    public func markAcknowledged(sent: [String], failed: [String]) {
        guard !sent.isEmpty || !failed.isEmpty else { return }
        let queueWrite = marks.withLock { marks -> Bool in
            marks.sent += sent
            marks.failed += failed
            defer { marks.lateWriteQueued = true }
            return !marks.lateWriteQueued
        }
        guard queueWrite else { return }
        queue.runLater(after: markPatience) { db in
            self.marks.withLock { $0.lateWriteQueued = false }
            self.writeMarks(db)
        }
    }

    /// Runs `body` in an immediate transaction that writes the waiting marks first.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            write(body) { continuation.resume(with: $0) }
        }
    }

    /// The same, handing the outcome to `completion` on the database's thread.
    func write<T: Sendable>(
        _ body: @escaping @Sendable (Database) throws -> T, then completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        queue.run({ db in try self.transaction(db, body) }, then: completion)
    }

    /// The same on the calling thread, now, when the database is idle and no other connection
    /// holds its lock; nil when it is not, or when the write failed (then nothing was
    /// written, and the caller hands it to `write`, which waits and reports the error).
    func writeHere<T>(_ body: (Database) throws -> T) -> T? {
        let done = queue.runHereIfFree { db in
            db.waitingForLocks(atMost: .zero) { db in try? self.transaction(db, body) }
        }
        return done ?? nil
    }

    /// The immediate transaction every write runs in: the waiting marks, then `body`; the
    /// marks are kept for the next one when it fails.
    private func transaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        let marks = self.marks.withLock { $0.take() }
        do {
            return try db.transaction(.immediate) { db in
                try Self.apply(marks, db)
                return try body(db)
            }
        } catch {
            self.marks.withLock { $0.restore(marks) }
            throw error
        }
    }

    /// Runs `body` in a deferred transaction after writing the waiting marks, so it reads them.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await queue.run { db in
            self.writeMarks(db)
            return try db.transaction(.deferred, body)
        }
    }

    /// Writes the waiting marks in a transaction of their own; kept for the next try when it
    /// fails (a read then shows those messages pending, and a resend of them is harmless).
    func writeMarks(_ db: Database) {
        let marks = self.marks.withLock { $0.take() }
        guard !marks.isEmpty else { return }
        do {
            try db.transaction(.immediate) { db in try Self.apply(marks, db) }
        } catch {
            self.marks.withLock { $0.restore(marks) }
        }
    }

    private static func apply(_ marks: SentMarks, _ db: Database) throws {
        for cid in marks.sent { try db.execute("UPDATE message SET state = 2 WHERE direction = 1 AND cid = ?", [.text(cid)]) }
        for cid in marks.failed { try db.execute("UPDATE message SET state = 3 WHERE direction = 1 AND cid = ?", [.text(cid)]) }
    }
}
