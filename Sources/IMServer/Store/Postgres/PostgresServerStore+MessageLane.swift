import IMTransport

extension PostgresServerStore: MessageLaneStore {
    /// The async lane: a round trip to PostgreSQL must not block the loop.
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        AsyncMessageLane(store: self, loop: loop)
    }
}
