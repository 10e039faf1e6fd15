import IMProtocol
import IMHTTP

/// Where an account's login token comes from.
public enum TokenSource: Sendable, Hashable, CustomStringConvertible {
    /// A token written in the profile (`token`).
    case literal(Secret)
    /// A shell command whose standard output is the token (`tokenCommand`).
    case command(String)
    /// An http URL whose answer is the token (`tokenURL`).
    case url(HTTPURL)
    /// No token in the profile: one is fetched from the server API with the profile's app secret.
    case serverAPI

    /// The profile field that selects this source; `nil` for `serverAPI`, which no field names.
    public var fieldName: String? {
        switch self {
        case .literal: return "token"
        case .command: return "tokenCommand"
        case .url: return "tokenURL"
        case .serverAPI: return nil
        }
    }

    /// A line for people, with a literal token redacted: `token eyJ2…`, `command pass show x`.
    public var description: String {
        switch self {
        case .literal(let token): return "token \(token.redacted)"
        case .command(let command): return "command \(command)"
        case .url(let url): return "URL \(url)"
        case .serverAPI: return "server API"
        }
    }
}
