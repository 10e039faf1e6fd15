/// A request the server cannot carry out, in words a person can act on.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownApp(String)
    case cannotStart(String)

    public var description: String {
        switch self {
        case .unknownApp(let key): return "unknown app key '\(key)'"
        case .cannotStart(let reason): return "the server cannot start: \(reason)"
        }
    }
}
