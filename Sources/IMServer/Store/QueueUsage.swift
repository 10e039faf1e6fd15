/// What one user has stored and not yet delivered (see `QueueQuota`).
public struct QueueUsage: Sendable, Equatable {
    public var messages: Int
    public var bytes: Int

    public init(messages: Int = 0, bytes: Int = 0) {
        self.messages = messages
        self.bytes = bytes
    }
}

extension QueueUsage {
    /// Counts one more message of `bytes`.
    mutating func add(messageOf bytes: Int) {
        messages += 1
        self.bytes += bytes
    }

    /// Counts one message of `bytes` less: it left the last queue that held it.
    mutating func remove(messageOf bytes: Int) {
        messages -= 1
        self.bytes -= bytes
    }

    /// Whether this, as a change, changes nothing.
    var isZero: Bool { messages == 0 && bytes == 0 }

    static func + (lhs: QueueUsage, rhs: QueueUsage) -> QueueUsage {
        QueueUsage(messages: lhs.messages + rhs.messages, bytes: lhs.bytes + rhs.bytes)
    }
}
