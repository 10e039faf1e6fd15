import Foundation
import IMProcess

/// Where a bench keeps the server's store (`server/`) and the sessions' databases (`clients/`):
/// `--data DIR`, kept, or a temporary directory removed when the bench ends.
package struct BenchDirectory: Sendable {
    let path: String
    let isTemporary: Bool

    package var server: String { "\(path)/server" }
    var clients: String { "\(path)/clients" }

    /// Creates `path`, or a new temporary directory when nil.
    package static func make(_ path: String?) throws(BenchError) -> BenchDirectory {
        let directory = BenchDirectory(
            path: path ?? NSTemporaryDirectory() + "imsh-bench-" + UUID().uuidString, isTemporary: path == nil)
        do {
            for folder in [directory.server, directory.clients] {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
        } catch {
            throw BenchError("cannot create the data directory \(directory.path): \(error.localizedDescription)")
        }
        if directory.isTemporary { Interruption.removeIfInterrupted(directory.path) }
        return directory
    }

    /// Removes a temporary directory; keeps one given with `--data`.
    package func release() {
        guard isTemporary else { return }
        try? FileManager.default.removeItem(atPath: path)
        Interruption.forget(path)
    }
}
