import IMJSON

/// A message payload the contract does not allow; the server answers PUBACK 0x99.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    /// A payload that is not JSON the contract accepts; keeps the parser's place and reason.
    public init(_ error: JSONError) {
        self.reason = "invalid JSON at \(error.location): \(error.reason)"
    }

    public var description: String { "invalid message payload: \(reason)" }
}
