/// A token source failed: which source, why, and what that means for the session.
public struct TokenFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: TokenSource
    public var reason: String
    public var condition: TokenCondition

    public init(_ source: TokenSource, _ reason: String, condition: TokenCondition = .refused) {
        self.source = source
        self.reason = reason
        self.condition = condition
    }

    public var description: String { "could not get a token from \(source): \(reason)" }
}
