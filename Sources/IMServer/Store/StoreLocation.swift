/// Where imserver keeps its state: a data directory (SQLite, the single-machine default) or a
/// PostgreSQL database that several nodes share.
public enum StoreLocation: Sendable, Equatable {
    /// `DIR/server.sqlite`.
    case directory(String)
    /// A `postgres://` URL or a libpq `key=value` string.
    case postgres(String)

    /// The `--store` option's value, else the data directory.
    public init(directory: String, storeURL: String?) {
        self = storeURL.map { .postgres($0) } ?? .directory(directory)
    }

    /// Opens (and migrates) the store; `nodeName` names this process among PostgreSQL's clients.
    public func open(nodeName: String, connections: Int = 4) async throws(ServerStoreError) -> any ServerStore {
        try await openForBroker(nodeName: nodeName, connections: connections)
    }

    /// The store `open` opens, as the broker runs on it: with the message lane it makes.
    func openForBroker(nodeName: String, connections: Int = 4) async throws(ServerStoreError) -> any MessageLaneStore {
        switch self {
        case .directory(let directory):
            return try await SQLiteServerStore.open(directory: directory)
        case .postgres(let url):
            return try await PostgresServerStore.open(url: url, nodeName: nodeName, connections: connections)
        }
    }
}
