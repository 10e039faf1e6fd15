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
        guard isActive, let database else { throw .notConnected("connect before sending") }
        let outgoing = SessionDatabase.Outgoing(cid: Self.newClientMessageID(), to: peer, text: text, at: clock.epochMilliseconds)
        do {
            return try await withCheckedThrowingContinuation { continuation in
                sendBatch.add(WaitingSend(message: outgoing, continuation: continuation))
                storeSends(in: database)
            }
        } catch {
            throw .database("cannot store the message: \(error)")
        }
    }

    /// Stores the waiting sends in one transaction, publishes them in that order, then
    /// answers their callers; sends that arrived meanwhile go next.
    private func storeSends(in database: SessionDatabase) {
        guard let batch = sendBatch.next() else { return }
        Task {
            do {
                let stored = try await database.enqueueOutgoing(batch.map(\.message))
                await self.sendsStored(batch, stored)
            } catch {
                self.sendsFailed(batch, error)
            }
        }
    }

    private func sendsStored(_ batch: [WaitingSend], _ stored: [StoredMessage]) async {
        for message in stored {
            if let link { await publish(message, on: link) }
        }
        for (waiting, message) in zip(batch, stored) { waiting.continuation.resume(returning: message) }
        nextSends()
    }

    private func sendsFailed(_ batch: [WaitingSend], _ error: any Error) {
        for waiting in batch { waiting.continuation.resume(throwing: error) }
        nextSends()
    }

    private func nextSends() {
        sendBatch.finish()
        guard let database else {
            for item in sendBatch.takeWaiting() {
                item.continuation.resume(throwing: EngineError.notConnected("the session closed its database"))
            }
            return
        }
        storeSends(in: database)
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
        guard let database else { throw .notConnected("the local database opens with the first connect") }
        do {
            return try await body(database)
        } catch {
            throw .database("\(error)")
        }
    }

    /// Publishes `message` unless it already went out on this connection.
    ///
    /// A message whose PUBLISH exceeds the server's Maximum Packet Size is not sent (MQTT
    /// forbids it, and the server would drop the connection, again at every resend): it fails
    /// at once with 0x95 packet too large, its report saying it was not sent, with both sizes.
    ///
    /// Past the server's Receive Maximum the message waits on the link until a PUBACK frees room.
    func publish(_ message: StoredMessage, on link: SessionLink) async {
        guard let cid = message.cid, !link.publishedCIDs.contains(cid) else { return }
        guard link.inFlight.count < link.receiveMaximum else {
            if !link.held.contains(where: { $0.cid == cid }) { link.held.append(message) }
            return
        }
        guard let (id, isResend) = outgoing.packetID(for: cid) else { return }
        link.publishedCIDs.insert(cid)
        let bytes = Packet.publish(SessionPackets.publish(message, packetID: id, dup: isResend)).encoded()
        if let limit = link.maximumPacketSize, bytes.count > limit {
            let why = "as a PUBLISH it is \(bytes.count) bytes, over the server's Maximum Packet Size of \(limit) bytes (0x95)"
            return await acknowledged([PubAck(packetIdentifier: id, reasonCode: .packetTooLarge)], notSent: why)
        }
        link.inFlight.insert(cid)
        link.send(encoded: bytes, at: clock.now)
    }

    /// Sends what the Receive Maximum held back, as far as the room the acknowledgements made.
    private func releaseHeld(on link: SessionLink) async {
        while link.inFlight.count < link.receiveMaximum, !link.held.isEmpty, self.link === link {
            await publish(link.held.removeFirst(), on: link)
        }
    }

    /// After CONNACK: what the server has not acknowledged goes out again, same cid.
    func resendPending(on link: SessionLink) async {
        guard let database, let pending = try? await database.pendingOutgoing() else { return }
        for message in pending {
            guard self.link === link else { return }
            await publish(message, on: link)
        }
    }

    /// PUBACKs: the server stored these messages (or refused them, for good).
    /// `notSent` says why the engine did not send them, when it answered for the server.
    func acknowledged(_ acknowledgements: [PubAck], notSent: String? = nil) async {
        var reports: [SendReport] = []
        var sent: [String] = []
        var failed: [String] = []
        for acknowledgement in acknowledgements {
            guard let cid = outgoing.acknowledge(acknowledgement.packetIdentifier) else { continue }
            if acknowledgement.reasonCode.isFailure { failed.append(cid) } else { sent.append(cid) }
            reports.append(SendReport(cid: cid, acknowledgement, notSent: notSent))
        }
        if let link {
            link.inFlight.subtract(sent)
            link.inFlight.subtract(failed)
        }
        database?.markAcknowledged(sent: sent, failed: failed)
        for report in reports {
            publish(.sendReport(report))
        }
        if let link { await releaseHeld(on: link) }
    }

    /// A client message id: 16 random bytes in hex, unique without coordination.
    static func newClientMessageID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
