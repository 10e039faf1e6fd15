import IMTransport

extension SQLiteServerStore: MessageLaneStore {
    /// SQLite's lane, on the loop: a connection of its own to the file.
    func makeMessageLane(on loop: EventLoop) throws(ServerStoreError) -> any MessageLane {
        try SQLiteMessageLane(store: self, loop: loop)
    }
}
