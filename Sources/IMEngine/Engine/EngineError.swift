/// Why an engine or session call failed, with the SDK's legacy code where it has one.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The engine was not initialized, or was shut down: 33001.
    case notInitialized
    /// A parameter is invalid; the text names it: 33003.
    case invalidParameter(String)
    /// The local database cannot be opened, or the user id is unusable: 33002.
    case database(String)
    /// `connect` on a session that is already connecting or connected; nothing was started.
    case alreadyActive(String)
    /// The session has no connection under way (never connected, signed out or stopped).
    case notConnected(String)
    /// The connection ended for good: the status it reported and its legacy code.
    case terminated(SessionTermination)
    /// The engine cannot start (threads, descriptors); the text says what failed.
    case unavailable(String)

    /// The legacy code: 33001, 33002, 33003, or the terminal condition's (31004, 34006, ...).
    public var code: ConnectErrorCode? {
        switch self {
        case .notInitialized: return .clientNotInitialized
        case .invalidParameter: return .invalidParameter
        case .database: return .databaseError
        case .terminated(let termination): return termination.code
        case .alreadyActive, .notConnected, .unavailable: return nil
        }
    }

    /// The status a terminal failure reported (tokenIncorrect, timeout, ...); nil otherwise.
    public var status: ConnectionStatus? {
        if case .terminated(let termination) = self { return termination.status }
        return nil
    }

    public var description: String {
        switch self {
        case .notInitialized:
            return "error 33001 RC_CLIENT_NOT_INIT: the engine is not initialized (initialize it before connecting)"
        case .invalidParameter(let detail):
            return "error 33003 RC_INVALID_PARAMETER: \(detail)"
        case .database(let detail):
            return "error 33002 DATABASE_ERROR: \(detail)"
        case .alreadyActive(let detail):
            return "already \(detail): disconnect first, or wait for the connection"
        case .notConnected(let detail):
            return "not connected: \(detail)"
        case .terminated(let termination):
            return termination.description
        case .unavailable(let detail):
            return "the engine cannot start: \(detail)"
        }
    }
}
