import IMTransport

extension PostgresServerStore: MessageLaneStore {
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        PostgresMessageLane(store: self, loop: loop)
    }
}
