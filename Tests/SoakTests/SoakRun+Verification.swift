import IMEngine

extension SoakRun {
    /// What the sessions' databases and statuses say, against what the server acknowledged.
    struct Outcome: Sendable {
        /// Sessions not connected, with their status.
        var notConnected: [String] = []
        /// Messages the server acknowledged that their receiver does not hold.
        var missing: [SoakLedger.Sent] = []
        /// Messages a receiver holds more than once (same sender and cid).
        var duplicates: [String] = []
        /// Incoming messages in all the receivers' databases.
        var delivered = 0

        var isSettled: Bool { notConnected.isEmpty && missing.isEmpty }
    }

    /// Waits until every session is connected, every message sent is acknowledged and every
    /// acknowledged one delivered, or `settleLimit` has passed.
    func settle() async throws {
        let deadline = ContinuousClock.now + settings.settleLimit
        while ContinuousClock.now < deadline {
            if try await outcome().isSettled && ledger.unacknowledged.isEmpty { return }
            try await Task.sleep(for: .seconds(2))
        }
    }

    /// Reads every session's status and database.
    func outcome() async throws -> Outcome {
        let expected = ledger.acknowledgedByReceiver()
        var outcome = Outcome()
        for (index, session) in sessions.enumerated() {
            let user = users[index]
            let status = await session.status
            if status != .connected { outcome.notConnected.append("\(user) \(status)") }
            let incoming = try await session.history(limit: 1_000_000).filter { $0.direction == .incoming }
            var copies: [String: Int] = [:]
            for message in incoming { copies["\(message.peer) \(message.cid ?? "no cid")", default: 0] += 1 }
            for (key, count) in copies where count > 1 { outcome.duplicates.append("\(user) holds \(key) \(count) times") }
            for message in expected[user] ?? [] where copies["\(message.from) \(message.cid)"] == nil {
                outcome.missing.append(message)
            }
            outcome.delivered += incoming.count
        }
        return outcome
    }
}
