import IMEngine

/// One stretch of a lane in one status, from the log entry that began it to the next one.
public struct TimelineSpan: Sendable, Equatable {
    public var kind: SpanKind
    /// The status of the entry that began the span (several statuses share `ended`).
    public var status: ConnectionStatus
    public var code: ConnectErrorCode?
    public var detail: String
    /// Milliseconds since the epoch.
    public var start: Int64
    public var end: Int64
    /// Connection attempts in the span: 1 for a connecting span, plus each failed one logged.
    public var attempts: Int

    public init(kind: SpanKind, status: ConnectionStatus, code: ConnectErrorCode?, detail: String, start: Int64, end: Int64, attempts: Int = 0) {
        self.kind = kind
        self.status = status
        self.code = code
        self.detail = detail
        self.start = start
        self.end = end
        self.attempts = attempts
    }
}
