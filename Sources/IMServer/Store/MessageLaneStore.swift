import IMTransport

/// A store the broker can run on: a `ServerStore` that makes the `MessageLane` suited to it.
///
/// Internal, beside the public `ServerStore`: the lane is the broker's business, not part of
/// the store's public boundary. Both stores implement it, each choosing its own lane.
protocol MessageLaneStore: ServerStore {
    /// The lane for this store on `loop`. Call on `loop` (SQLite's lane opens its connection
    /// there, before any client).
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane
}
