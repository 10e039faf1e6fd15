/// What one user has stored and not yet delivered (see `QueueQuota`).
public struct QueueUsage: Sendable, Equatable {
    public var messages: Int
    public var bytes: Int

    public init(messages: Int = 0, bytes: Int = 0) {
        self.messages = messages
        self.bytes = bytes
    }
}
