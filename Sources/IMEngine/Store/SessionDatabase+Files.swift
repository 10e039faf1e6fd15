import Foundation

extension SessionDatabase {
    /// The database files an account has for `appKey` under its `directory` (one per user id
    /// it logged in as), sorted; none when it never connected.
    public static func files(directory: String, appKey: String) -> [String] {
        let folder = folder(directory: directory, appKey: appKey)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".sqlite") }.sorted().map { "\(folder)/\($0)" }
    }
}
