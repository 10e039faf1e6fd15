/// What a `TokenProvider` throws to name what its failure means; any other error it throws
/// counts as `refused`.
public struct TokenProviderFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var condition: TokenCondition

    public init(_ reason: String, condition: TokenCondition) {
        self.reason = reason
        self.condition = condition
    }

    public var description: String { reason }
}
