/// What one imserver node tells the others sharing its PostgreSQL store.
enum ClusterEvent: Equatable, Sendable {
    /// Messages were queued for these devices: a node where one of them is online fetches its queue.
    case deliver(appKey: String, [Delivery])
    /// A device logged in. Every node disconnects the user's connections this login displaces
    /// (the same device, or another device of the same platform) that logged in earlier, that
    /// is with a lower `sequence`: the device policy across nodes, where the newest login wins.
    case login(sequence: Int64, appKey: String, userID: String, deviceID: String, platform: String)
    /// An operator acted on these users through the API (kick, block, deactivate): every node
    /// disconnects their devices with this reason code and `im-error` name.
    case disconnect(appKey: String, userIDs: [String], reasonCode: UInt8, errorName: String)
}
