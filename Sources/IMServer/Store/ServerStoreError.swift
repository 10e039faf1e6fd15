/// Why the server's durable store refused or failed an operation.
///
/// Every description names the database file and what was being done, so an operator can
/// act on it (free disk space, fix permissions, move a damaged file aside).
public enum ServerStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data directory or the database file cannot be created or opened.
    case cannotOpen(path: String, reason: String)
    /// A user id that is not 1-64 bytes of `[A-Za-z0-9+=_-]`.
    case invalidUserID(String)
    /// A device id that is not 1-64 bytes of `[A-Za-z0-9_-]`.
    case invalidDeviceID(String)
    /// The store cannot be reached now (PostgreSQL down or its connection lost, SQLite's file
    /// locked by another connection for longer than the server waits); the same call may
    /// succeed later, so the broker answers with a retryable code.
    case unavailable(operation: String, location: String, reason: String)
    /// SQLite failed while doing `operation` (disk full, I/O error, a damaged file).
    case failed(operation: String, path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open server database at \(path): \(reason)"
        case .invalidUserID(let id):
            return "user id '\(id)' is not 1-64 characters of A-Z a-z 0-9 + = _ -"
        case .invalidDeviceID(let id):
            return "device id '\(id)' is not 1-64 characters of A-Z a-z 0-9 _ -"
        case let .unavailable(operation, location, reason):
            return "server database \(location) is unavailable: cannot \(operation): \(reason)"
        case let .failed(operation, path, reason):
            return "server database \(path): cannot \(operation): \(reason)"
        }
    }
}
