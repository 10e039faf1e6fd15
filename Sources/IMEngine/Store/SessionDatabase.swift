#if canImport(Glibc)
import Glibc
#endif
import IMProtocol
import IMStore
import Synchronization

/// One account's local database: its messages and connection log.
///
/// One SQLite file per (app key, user id), `DATA/<app key>/<user id>.sqlite`, opened compact
/// (`Database.Configuration.compact`: rollback journal kept in place, the file's lock kept
/// between transactions, no fsync): while open, the file is this session's alone.
/// All access goes through a `DatabaseQueue`, so the handle has one owner and its blocking
/// calls stay off Swift's cooperative pool; the engine's queues give the file back while it
/// is unused (`DatabaseQueue.IdleClosing`), so 10,000 sessions need not hold 10,000 files. A file that is corrupt or not a database is moved
/// aside (never deleted) and a fresh one made; `open` then reports `isRecreated`.
public final class SessionDatabase: Sendable {
    public let path: String
    let queue: DatabaseQueue
    /// Where a damaged file and its companions were moved when this one was made afresh.
    public let movedAside: [String]
    /// PUBACKs not written yet (see `markAcknowledged`).
    let marks = Mutex(SentMarks())
    /// How long those wait for another transaction to ride before they are written alone.
    let markPatience: Duration

    private init(path: String, queue: DatabaseQueue, movedAside: [String] = [], markPatience: Duration) {
        self.markPatience = markPatience
        self.movedAside = movedAside
        self.path = path
        self.queue = queue
    }

    /// The file that holds `userID`'s data for `appKey` under `directory`.
    public static func path(directory: String, appKey: String, userID: String) -> String {
        "\(folder(directory: directory, appKey: appKey))/\(userID).sqlite"
    }

    /// The folder of `appKey`'s files under an account's `directory` (one file per user id).
    public static func folder(directory: String, appKey: String) -> String {
        "\(directory)/\(fileNameComponent(appKey))"
    }

    /// Opens or creates the database, migrating it to the current schema.
    ///
    /// - Throws: `SessionDatabaseError` when the user id is not of `[A-Za-z0-9+=_-]{1,64}`
    ///   or the file cannot be opened even after moving a damaged one aside.
    /// `threads`, when given, is where its work runs (shared with other sessions' files);
    /// `markPatience` is how long the server's answers wait to ride another transaction (see
    /// `markAcknowledged`); `idleClosing`, when the file is given back while unused.
    public static func open(
        directory: String, appKey: String, userID: String, threads: DatabaseThreads? = nil,
        markPatience: Duration = .seconds(1), idleClosing: DatabaseQueue.IdleClosing? = nil
    ) async throws(SessionDatabaseError)
        -> (database: SessionDatabase, isRecreated: Bool)
    {
        guard IMIdentifier.isValidUserID(userID) else { throw .invalidUserID(userID) }
        let path = path(directory: directory, appKey: appKey, userID: userID)
        do {
            if let failure = Database.createDirectories(String(path[..<path.lastIndex(of: "/")!]), below: directory) {
                throw SessionDatabaseError.cannotOpen(path: path, reason: failure)
            }
            // SQLite follows symlinks (its NOFOLLOW flag refuses one anywhere in the path, even
            // above the data directory): the file itself must not be one.
            var status = stat()
            if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                throw SessionDatabaseError.cannotOpen(path: path, reason: "not a regular file (a symlink?); remove it")
            }
            // Thousands of sessions keep their files open at once: see `Configuration.compact`
            // for what the compact settings cost and keep.
            let (queue, movedAside) = try await DatabaseQueue.open(
                path: path, configuration: .compact, migrator: Self.migrator, recoverCorruption: true,
                target: threads?.nextQueue(), idleClosing: idleClosing)
            let database = SessionDatabase(path: path, queue: queue, movedAside: movedAside, markPatience: markPatience)
            return (database, !movedAside.isEmpty)
        } catch let error as SessionDatabaseError {
            throw error
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
    }

    /// Writes what waits (the server's answers not yet recorded), then closes the file after
    /// the work already submitted.
    public func close() async {
        // Only when there are any: a file given back while idle would be opened just to close it.
        if !marks.withLock({ $0.isEmpty }) { try? await queue.run { db in self.writeMarks(db) } }
        await queue.close()
    }

    /// App keys may hold characters that do not belong in a file name; those are %-escaped.
    static func fileNameComponent(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result.isEmpty || result == "." || result == ".." ? "%" + result : result
    }
}
