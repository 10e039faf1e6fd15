/// A test's own failure, with what went wrong: thrown where a helper cannot go on.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
