/// One device a stored message is queued for.
public struct Delivery: Sendable, Hashable {
    public var userID: String
    public var deviceID: String
    /// The newest message still queued for the device when this one was, when the store tells
    /// (PostgreSQL; 0: none; `Int64.max`: not looked up, so a read must tell). A connection that
    /// has handed that one over can be sent this message without reading its queue: nothing
    /// can be missing before it. Nil (SQLite): the loop's own order says so instead
    /// (`Deliveries.offer`).
    public var previous: Int64?

    public init(userID: String, deviceID: String, previous: Int64? = nil) {
        self.userID = userID
        self.deviceID = deviceID
        self.previous = previous
    }
}
