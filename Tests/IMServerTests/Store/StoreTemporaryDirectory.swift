import Foundation
import IMServer

/// A fresh data directory under the system's temp dir, removed when the test is done with it.
final class StoreTemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "imserver-store-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Opens the server store in this directory.
    func open() async throws -> ServerStore {
        try await ServerStore.open(directory: path)
    }

    /// Writes `text` to `name` inside the directory and returns the file's path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
