/// How a session's connection ended for good: the status it reports and the legacy code, if any.
public struct SessionTermination: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: ConnectionStatus
    public var code: ConnectErrorCode?
    /// What happened, in words (the server's `im-error`, a reason string, or the client-side cause).
    public var detail: String

    public init(_ status: ConnectionStatus, _ code: ConnectErrorCode?, detail: String = "") {
        self.status = status
        self.code = code
        self.detail = detail
    }

    public static func == (lhs: SessionTermination, rhs: SessionTermination) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code
    }

    public var description: String {
        var text = "\(status.name) (\(status.rawValue))"
        if let code { text += ", error \(code.rawValue) \(code.name)" }
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }

    /// The connect call's timeout passed first.
    public static let timedOut = SessionTermination(.timeout, .connectTimeout, detail: "no connection within the connect timeout")
    /// The app disconnected while the connect call was still pending.
    public static let signedOut = SessionTermination(.signOut, nil, detail: "disconnected before the connection was made")
}
