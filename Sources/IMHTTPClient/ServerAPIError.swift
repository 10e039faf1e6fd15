/// Why a server API call failed, with what to check.
public enum ServerAPIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: cannot connect, timed out, or the connection broke.
    case unreachable(url: String, reason: String)
    /// The server answered with an error: HTTP status, the answer's `code`, its message.
    case refused(url: String, status: Int, code: Int?, message: String)
    /// The answer could not be read as the API's JSON.
    case badAnswer(url: String, reason: String)
    /// TLS cannot work with the server as configured (verification, pin, certificate files).
    case untrusted(url: String, reason: String)

    public var description: String {
        switch self {
        case let .unreachable(url, reason):
            return "server API \(url) did not answer: \(reason); is the server running, and is the profile's api right?"
        case let .refused(url, status, code, message):
            let codeText = code.map { ", code \($0)" } ?? ""
            let hint = status == 401 ? "; check the profile's appKey and appSecret" : ""
            return "server API \(url) refused (HTTP \(status)\(codeText)): \(message)\(hint)"
        case let .badAnswer(url, reason):
            return "server API \(url) gave an answer imsh cannot read: \(reason)"
        case let .untrusted(url, reason):
            return "server API \(url) cannot be used over TLS as configured: \(reason); check the profile's tls"
        }
    }
}
