/// A kick drawn from the device that logged in to the device of the same user it kicked.
public struct TimelineLink: Sendable, Equatable {
    /// Lane index of the device that connected.
    public var from: Int
    /// Lane index of the device that was kicked.
    public var to: Int
    /// When `from` connected, and when `to` logged the kick (milliseconds since the epoch).
    public var connectedAt: Int64
    public var kickedAt: Int64

    public init(from: Int, to: Int, connectedAt: Int64, kickedAt: Int64) {
        self.from = from
        self.to = to
        self.connectedAt = connectedAt
        self.kickedAt = kickedAt
    }
}
