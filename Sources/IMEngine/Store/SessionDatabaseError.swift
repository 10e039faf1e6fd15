/// Why a session's local database cannot be used; the engine reports 33002 for each.
public enum SessionDatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user id has characters outside `[A-Za-z0-9+=_-]` or is not 1-64 of them.
    case invalidUserID(String)
    case cannotOpen(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidUserID(let id):
            return "user id '\(id)' is not 1-64 characters of A-Z a-z 0-9 + = _ -"
        case let .cannotOpen(path, reason):
            return "cannot open the local database \(path): \(reason)"
        }
    }
}
