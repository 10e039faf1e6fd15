import IMServer
import TestSupport

extension TemporaryDirectory {
    /// Opens the server store in this directory.
    func open() async throws -> SQLiteServerStore {
        try await SQLiteServerStore.open(directory: path)
    }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    func write(_ name: String, _ text: String) throws -> String {
        write(text, to: name)
    }
}
