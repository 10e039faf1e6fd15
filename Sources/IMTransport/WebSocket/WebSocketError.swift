/// A WebSocket frame the peer should not have sent, with the close code that answers it.
public struct WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(_ code: WebSocketCloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(reason) (close code \(code))" }
}
