import Foundation
import IMEngine
import IMThreads
import IMTransport

/// Reads an account's connection log from the database files on disk without creating,
/// migrating or keeping anything open; a file a live session holds (its own alone while open,
/// see `Database.Configuration.compact`) is read by the caller through that session.
///
/// An account's directory holds one file per user id it logged in as (`APPKEY/USER.sqlite`);
/// the entries of all of them are merged, oldest first.
public enum AccountLogReader {
    /// The latest entries kept per file, so that a long history stays quick to draw.
    public static let entryLimit = 20_000

    /// What was read for one account: its entries, the user id when there is one file, and
    /// the problems met (a file that could not be read is named, not fatal).
    public struct Result: Sendable {
        public var entries: [ConnectionLogEntry] = []
        public var userID: String?
        public var problems: [String] = []
    }

    /// The entries under `accountDirectory` for `appKey`, read off the cooperative pool;
    /// `live` holds the entries of files a session has open, by path, read through it.
    public static func read(accountDirectory: String, appKey: String, live: [String: [ConnectionLogEntry]] = [:]) async -> Result {
        await BlockingCall.run { readNow(accountDirectory: accountDirectory, appKey: appKey, live: live) }
    }

    static func readNow(accountDirectory: String, appKey: String, live: [String: [ConnectionLogEntry]] = [:]) -> Result {
        var result = Result()
        let files = SessionDatabase.files(directory: accountDirectory, appKey: appKey)
        for file in files {
            if let entries = live[file] {
                result.entries += entries
                continue
            }
            do {
                result.entries += try SessionDatabase.readConnectionLog(path: file, limit: entryLimit)
            } catch {
                result.problems.append("\(file): \(error)")
            }
        }
        if files.count == 1 { result.userID = String((files[0] as NSString).lastPathComponent.dropLast(".sqlite".count)) }
        result.entries = result.entries.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        return result
    }
}
