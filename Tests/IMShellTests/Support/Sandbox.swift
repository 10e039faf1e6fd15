import Foundation

/// A temporary home for one test: a profile directory (a copy of the shipped profiles, or
/// files the test writes), a data directory, removed when released.
final class Sandbox {
    let root: String
    var home: String { root }
    var profiles: String { "\(root)/profiles" }
    var data: String { "\(root)/data" }

    /// The repository's `profiles/` folder, found from this file's path.
    static let shippedProfiles: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("profiles").path
    }()

    init(shipped: Bool = true) {
        root = NSTemporaryDirectory() + "imsh-shell-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        if shipped {
            for name in ["dev.json", "prod.json"] {
                try! FileManager.default.copyItem(atPath: "\(Self.shippedProfiles)/\(name)", toPath: "\(profiles)/\(name)")
                chmod("\(profiles)/\(name)", 0o600)
            }
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Writes a file (parents created) with exactly `mode`; returns its path.
    @discardableResult
    func write(_ text: String, to relativePath: String, mode: mode_t = 0o600) -> String {
        let path = "\(root)/\(relativePath)"
        try! FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), "cannot write \(path)")
        chmod(path, mode)
        return path
    }

    /// Runs imsh on this sandbox's profiles and data.
    func imsh(
        _ arguments: [String], directory: String? = nil, environment: [String: String] = [:], stdin: String = "",
        timeout: Duration = .seconds(60)
    ) async throws -> ImshProcess.Run {
        try await ImshProcess.run(
            ["--profiles", profiles, "--data", data] + arguments, home: home, directory: directory,
            environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Runs `-c script --json` on this sandbox.
    func json(_ script: String, _ extra: [String] = [], timeout: Duration = .seconds(60)) async throws -> ImshProcess.Run {
        try await imsh(["--json", "-c", script] + extra, timeout: timeout)
    }
}
