import IMServer
import TestSupport

extension TemporaryDirectory {
    /// Opens the server store in this directory, or in a fresh PostgreSQL database when the
    /// environment names a server (`IMSH_TEST_POSTGRES`): the same tests for both stores.
    func open() async throws -> any ServerStore {
        if let url = try TestPostgresDatabase.fromEnvironment(for: path) {
            return try await PostgresServerStore.open(url: url, nodeName: "test")
        }
        return try await SQLiteServerStore.open(directory: path)
    }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    func write(_ name: String, _ text: String) throws -> String {
        write(text, to: name)
    }
}

extension Delivery {
    /// The device alone: the chain (`previous`) is only the PostgreSQL store's, so the tests
    /// both stores run compare deliveries without it and check the chain apart.
    var unchained: Delivery { Delivery(userID: userID, deviceID: deviceID) }
}
