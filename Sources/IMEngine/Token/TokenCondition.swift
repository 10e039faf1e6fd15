import IMJSON

/// What a failed token fetch means for the session: the same for every source (command, URL,
/// server API, app code), so one condition always gives one status and code.
public enum TokenCondition: Sendable, Equatable, CustomStringConvertible {
    /// No answer now (unreachable, timed out, a server error): retried on the backoff schedule
    /// like a network failure, until the connect's timeout if it has one.
    case unavailable
    /// The source refuses to give a token for this user: tokenIncorrect (15), 31004.
    case refused
    /// The source says the user's tokens expired or were invalidated: tokenIncorrect (15), 31020.
    case expired
    /// The source says the app key is blocked, deleted or unknown: unconnected (11), 31008.
    case appBlocked

    /// The condition a source names with a JSON answer `{"code": 31004 | 31008 | 31020}`, as a
    /// command's output or an HTTP body; nil for any other answer.
    public static func named(in bytes: [UInt8]) -> TokenCondition? {
        guard let object = (try? JSONValue(parsing: bytes))?.objectValue,
              let code = object["code"]?.integerValue
        else { return nil }
        return named(code: Int(code))
    }

    /// The condition the contract's code names (31004, 31008, 31020); nil for any other.
    public static func named(code: Int) -> TokenCondition? {
        switch ConnectErrorCode(rawValue: code) {
        case .tokenIncorrect: return .refused
        case .tokenExpired: return .expired
        case .appBlockedOrDeleted: return .appBlocked
        default: return nil
        }
    }

    /// How the session ends for this condition; nil for `unavailable`, which is retried.
    func termination(detail: String) -> SessionTermination? {
        switch self {
        case .unavailable: return nil
        case .refused: return SessionTermination(.tokenIncorrect, .tokenIncorrect, detail: detail)
        case .expired: return SessionTermination(.tokenIncorrect, .tokenExpired, detail: detail)
        case .appBlocked: return SessionTermination(.unconnected, .appBlockedOrDeleted, detail: detail)
        }
    }

    public var description: String {
        switch self {
        case .unavailable: return "the token source did not answer"
        case .refused: return "the token source refuses a token for this user"
        case .expired: return "the user's tokens expired or were invalidated"
        case .appBlocked: return "the app key is blocked, deleted or unknown"
        }
    }
}
