/// A reference the shell cannot parse, with what to write instead.
public struct AccountReferenceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public init(_ text: String, _ reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "\(text): \(reason)" }
}
