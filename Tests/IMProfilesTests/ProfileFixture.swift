import Foundation
import IMProfiles

/// A fresh directory of profile files under the system's temp dir, removed when released.
final class ProfileFixture {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "imsh-profiles-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `text` to `name` with exactly `mode`, whatever the umask.
    @discardableResult
    func write(_ text: String, to name: String, mode: Int = 0o600) -> String {
        write(Array(text.utf8), to: name, mode: mode)
    }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String, mode: Int = 0o600) -> String {
        let path = file(name)
        let created = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        precondition(created, "cannot create \(path)")
        try! FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func makeDirectory(_ name: String) {
        try? FileManager.default.createDirectory(atPath: file(name), withIntermediateDirectories: true)
    }

    /// Loads `text` as profile `name` and returns its diagnostics with this directory's path removed,
    /// so expectations read `dev.json:3:5: error: …`.
    func diagnostics(_ text: String, name: String = "dev", mode: Int = 0o600) -> [String] {
        write(text, to: "\(name).json", mode: mode)
        return relative(ProfileLoader.load(file: file("\(name).json")).diagnostics.map(\.description))
    }

    /// Loads `text` as profile `name`, expecting it to load.
    func profile(_ text: String, name: String = "dev", mode: Int = 0o600) -> (Profile?, [String]) {
        write(text, to: "\(name).json", mode: mode)
        let set = ProfileLoader.load(file: file("\(name).json"))
        return (set.profiles.first, relative(set.diagnostics.map(\.description)))
    }

    func relative(_ lines: [String]) -> [String] {
        lines.map { $0.replacingOccurrences(of: path + "/", with: "") }
    }
}
