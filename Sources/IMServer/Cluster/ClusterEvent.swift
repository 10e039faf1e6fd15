/// What one imserver node tells the others sharing its PostgreSQL store.
enum ClusterEvent: Equatable, Sendable {
    /// A message was queued for these devices: a node where one of them is online sends it
    /// (`message`, when the notice had room for it and the device's chain allows: see
    /// `Delivery.previous`) or fetches the device's queue. `at`: when the notice was sent, in
    /// µs since the epoch by PostgreSQL's clock (0: not given), for the delay's histogram.
    case deliver(appKey: String, [Delivery], message: QueuedMessage?, at: Int64)
    /// A device logged in. Every node disconnects the user's connections this login displaces
    /// (the same device, or another device of the same platform) that logged in earlier, that
    /// is with a lower `sequence`: the device policy across nodes, where the newest login wins.
    case login(sequence: Int64, appKey: String, userID: String, deviceID: String, platform: String)
    /// An operator acted on these users through the API (kick, block, deactivate): every node
    /// disconnects their devices with this reason code and `im-error` name.
    case disconnect(appKey: String, userIDs: [String], reasonCode: UInt8, errorName: String)
}
