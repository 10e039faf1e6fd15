/// One device a stored message is queued for.
public struct Delivery: Sendable, Hashable {
    public var userID: String
    public var deviceID: String
    /// The message queued for the device just before this one, when the store knows it
    /// (PostgreSQL; 0 for none yet). A connection that has handed over exactly that one can be
    /// sent this message without reading its queue: nothing can be missing between the two.
    /// Nil (SQLite): the loop's own order says so instead (`Deliveries.offer`).
    public var previous: Int64?

    public init(userID: String, deviceID: String, previous: Int64? = nil) {
        self.userID = userID
        self.deviceID = deviceID
        self.previous = previous
    }
}
