/// What a retention purge removed.
public struct PurgeResult: Sendable, Equatable {
    /// Messages deleted.
    public var messages: Int
    /// Queue entries deleted with them: copies that no device acknowledged in time.
    public var queueEntries: Int

    public init(messages: Int = 0, queueEntries: Int = 0) {
        self.messages = messages
        self.queueEntries = queueEntries
    }

    public static func + (lhs: PurgeResult, rhs: PurgeResult) -> PurgeResult {
        PurgeResult(messages: lhs.messages + rhs.messages, queueEntries: lhs.queueEntries + rhs.queueEntries)
    }
}
