/// A request the server cannot carry out, in words a person can act on.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownApp(String)
    /// The app key is blocked: it gets no tokens and no logins.
    case appBlocked(String)
    case cannotStart(String)
    /// The server stopped while the request waited.
    case stopping

    public var description: String {
        switch self {
        case .unknownApp(let key): return "unknown app key '\(key)'"
        case .appBlocked(let key): return "app key '\(key)' is blocked"
        case .cannotStart(let reason): return "the server cannot start: \(reason)"
        case .stopping: return "the server is stopping"
        }
    }
}
