/// Why an HTTP exchange gave no usable answer.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: cannot connect or verify the server, timed out, or the connection broke.
    case unreachable(String)
    /// An answer that is not HTTP, or too large.
    case badAnswer(String)
    /// TLS cannot work with this server as configured (verification, pin, files): asking again
    /// gives the same answer.
    case untrusted(String)
    /// A whole answer whose status is not 2xx (only from `get`, which wants a body).
    case refused(status: Int, body: [UInt8])

    /// Whether asking again later may succeed: no answer, or a server error (5xx, 408, 429).
    public var isTransient: Bool {
        switch self {
        case .unreachable: return true
        case .badAnswer, .untrusted: return false
        case .refused(let status, _): return status >= 500 || status == 408 || status == 429
        }
    }

    public var description: String {
        switch self {
        case .unreachable(let reason), .badAnswer(let reason), .untrusted(let reason): return reason
        case .refused(let status, _): return "the server answered HTTP \(status)"
        }
    }
}
