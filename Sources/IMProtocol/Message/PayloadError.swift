/// A message payload the contract does not allow; the server answers PUBACK 0x99.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "invalid message payload: \(reason)" }
}
