import IMEngine
import IMHTTPClient
import IMServer

extension ServerAPIError {
    /// What this failure means for a session fetching its token, as for any other source: no
    /// answer or a server error is retried; 401/403 (unknown or blocked app key) is 31008; a
    /// JSON code the contract names is taken as it is; any other refusal is 31004.
    var tokenCondition: TokenCondition {
        switch self {
        case .unreachable:
            return .unavailable
        case let .refused(_, status, code, _):
            if let code, let named = TokenCondition.named(code: code) { return named }
            if status >= 500 || status == 408 || status == 429 { return .unavailable }
            return status == 401 || status == 403 ? .appBlocked : .refused
        case .badAnswer, .untrusted:
            return .refused
        }
    }
}

extension ServerError {
    /// The embedded server's refusals as token conditions, as its API would answer them.
    var tokenCondition: TokenCondition {
        switch self {
        case .unknownApp, .appBlocked: return .appBlocked
        case .cannotStart, .stopping: return .unavailable
        }
    }
}
