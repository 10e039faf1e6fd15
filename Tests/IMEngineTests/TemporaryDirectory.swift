import Foundation

/// A fresh directory under the system's temp dir, removed when the test is done with it.
final class TemporaryDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "imsh-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func contents(of subpath: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + subpath)) ?? []).sorted()
    }
}
