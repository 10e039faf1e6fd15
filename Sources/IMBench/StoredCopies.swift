import IMEngine

/// What the receivers' databases hold: each stored message, and any stored more than once.
struct StoredCopies: Sendable, Equatable {
    /// Incoming rows from the senders.
    var rows = 0
    /// Rows beyond the first of a message uid (the server's id) or client message id.
    var duplicates = 0
    /// Receivers whose database could not be read, with why.
    var unreadable: [String] = []

    /// Reads receiver `i`'s messages from sender `i` (all of them: the limit is generous).
    static func count(in receivers: [Session], from senders: [String]) async -> StoredCopies {
        var copies = StoredCopies()
        for (receiver, sender) in zip(receivers, senders) {
            do throws(EngineError) {
                let messages = try await receiver.history(peer: sender, limit: Int(Int32.max))
                    .filter { $0.direction == .incoming }
                copies.rows += messages.count
                let uids = Set(messages.compactMap(\.uid)), cids = Set(messages.compactMap(\.cid))
                copies.duplicates += messages.count - min(uids.count, cids.count)
            } catch {
                copies.unreadable.append("\(await receiver.userID ?? "?"): \(error)")
            }
        }
        return copies
    }
}
