import IMHTTP

/// Why a WebSocket link could not be set up or ended, worded so that a person knows what to check.
public enum WebSocketFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The endpoint answered the upgrade request with an ordinary HTTP response.
    case notUpgraded(HTTPStatus)
    /// The endpoint switched protocols but not as RFC 6455 says (accept key, headers), or
    /// answered with something that is not HTTP.
    case badHandshake(String)
    /// The endpoint closed the connection, or let the time pass, without answering the
    /// upgrade: a network or load matter, worth another try.
    case noAnswer(String)
    /// The server chose no subprotocol, or another than `mqtt`.
    case wrongSubprotocol(String?)
    /// The peer sent a close frame.
    case closedByPeer(WebSocketCloseCode, reason: String)
    /// The peer broke the protocol; we sent a close frame with the error's code.
    case refused(WebSocketError)
    /// Server side: the upgrade request was answered with this status and the connection closed.
    case upgradeRefused(HTTPStatus, reason: String)

    public var description: String {
        switch self {
        case let .notUpgraded(status):
            return "the server answered the WebSocket upgrade with HTTP \(status) instead of 101 Switching Protocols "
                + "(is the path right, and does that port serve MQTT over WebSocket?)"
        case let .badHandshake(detail):
            return "the WebSocket upgrade failed: \(detail)"
        case let .noAnswer(detail):
            return "no answer to the WebSocket upgrade: \(detail)"
        case let .wrongSubprotocol(chosen):
            return "the server chose WebSocket subprotocol " + (chosen.map { "'\($0)'" } ?? "none")
                + " instead of 'mqtt' (the endpoint does not serve MQTT over WebSocket)"
        case let .closedByPeer(code, reason):
            return "the peer closed the WebSocket with code \(code)" + (reason.isEmpty ? "" : ": \(reason)")
        case let .refused(error):
            return "the peer broke the WebSocket protocol: \(error)"
        case let .upgradeRefused(status, reason):
            return "the WebSocket upgrade was refused with HTTP \(status): \(reason)"
        }
    }
}
