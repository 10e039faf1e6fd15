import IMEngine

/// An instant worth pointing at on a lane: a connection attempt, a kick, a terminal error.
public struct TimelineMark: Sendable, Equatable {
    /// What the mark points at; its raw value names it in SVG, HTML and JSON.
    public enum Kind: String, Sendable {
        /// A connection attempt: the first of a connecting span at its start, then each failed one.
        case attempt
        /// The device was kicked (status 6).
        case kick
        /// A terminal status with an error code (ban, refused token, timeout, ...).
        case error
        /// A failed step of a scenario (`imsh test --html`); its detail is `FILE:LINE: message`.
        case failure
    }

    public var kind: Kind
    /// Milliseconds since the epoch.
    public var at: Int64
    public var status: ConnectionStatus
    public var code: ConnectErrorCode?
    public var detail: String

    public init(kind: Kind, at: Int64, status: ConnectionStatus, code: ConnectErrorCode?, detail: String) {
        self.kind = kind
        self.at = at
        self.status = status
        self.code = code
        self.detail = detail
    }

    /// `kick 31010`, `error 31009`, `attempt`, `failure`: what a chart writes next to the mark.
    public var label: String {
        code.map { "\(kind.rawValue) \($0.rawValue)" } ?? kind.rawValue
    }
}
