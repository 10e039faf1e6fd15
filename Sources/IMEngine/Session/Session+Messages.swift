import IMProtocol
import MQTT

extension Session {
    /// Sends a text message to `peer`: stored as pending first, then published (QoS 1).
    ///
    /// While the session is reconnecting the message waits in the database and goes out after
    /// the next CONNACK, with the same client message id; the server's PUBACK marks it sent
    /// (see `sendReports()`). A message too large for the server's Maximum Packet Size is
    /// marked failed with 0x95 instead of being sent.
    /// - Returns: the stored message, with its `cid`.
    /// - Throws: `invalidParameter` for a bad recipient, `notConnected` when no connection is
    ///   wanted (never connected, signed out, stopped), `database` when it cannot be stored.
    public func send(text: String, to peer: String) async throws(EngineError) -> StoredMessage {
        guard IMIdentifier.isValidUserID(peer) else {
            throw .invalidParameter("recipient '\(peer)' is not a valid user id")
        }
        guard isActive, let outbox = local?.outbox else { throw .notConnected("connect before sending") }
        let outgoing = SessionDatabase.Outgoing(cid: ClientMessageID.next(), to: peer, text: text, at: clock.epochMilliseconds)
        do {
            return try await withCheckedThrowingContinuation { continuation in
                outbox.submit(WaitingSend(message: outgoing, continuation: continuation))
            }
        } catch let error as EngineError {
            throw error
        } catch {
            throw .database("cannot store the message: \(error)")
        }
    }

    /// Messages in the local database, `peer`'s only when given, oldest first.
    public func history(peer: String? = nil, limit: Int = 50) async throws(EngineError) -> [StoredMessage] {
        try await withDatabase { try await $0.history(peer: peer, limit: limit) }
    }

    /// Sent messages the server has not acknowledged yet.
    public func pendingOutgoing() async throws(EngineError) -> [StoredMessage] {
        try await withDatabase { try await $0.pendingOutgoing() }
    }

    /// The connection log in the local database: the latest `limit` status changes, oldest first.
    public func connectionLog(limit: Int = 100) async throws(EngineError) -> [ConnectionLogEntry] {
        // The log's writes are queued on the database before this read, so it sees them all.
        return try await withDatabase { try await $0.connectionLog(limit: limit) }
    }

    private func withDatabase<T: Sendable>(
        _ body: @Sendable (SessionDatabase) async throws -> T
    ) async throws(EngineError) -> T {
        guard let database = local?.database else { throw .notConnected("the local database opens with the first connect") }
        do {
            return try await body(database)
        } catch {
            throw .database("\(error)")
        }
    }

    /// After CONNACK: what the server has not acknowledged goes out again, same cid, before
    /// anything sent since. When it cannot be read it waits for the next connection, and newer
    /// sends go out without it.
    func resendPending(on link: SessionLink) async {
        guard let local else { return }
        let pending = (try? await local.database.pendingOutgoing()) ?? []
        local.outbox.resend(pending, on: link.connection)
    }
}
