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

    static func + (lhs: QueueUsage, rhs: QueueUsage) -> QueueUsage {
        QueueUsage(messages: lhs.messages + rhs.messages, bytes: lhs.bytes + rhs.bytes)
    }
}
