/// A token source failed: which source, and why.
public struct TokenFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: TokenSource
    public var reason: String

    public init(_ source: TokenSource, _ reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "could not get a token from \(source): \(reason)" }
}
