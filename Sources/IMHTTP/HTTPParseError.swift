/// A message this codec refuses, with the status a server answers before closing.
///
/// "Need more bytes" is never an error: parsers return nil for that. After an error the
/// parser stays failed; the connection must be closed (framing is lost).
public struct HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status for the reply: 400 malformed, 413 body too large, 431 head too large,
    /// 417 unknown expectation, 501 Transfer-Encoding in a request, 505 version other than 1.x.
    /// Response-side errors carry 502.
    public var status: HTTPStatus
    public var reason: String

    public init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status): \(reason)" }
}
