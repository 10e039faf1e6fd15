/// A file that is not valid JSON, with where the parser stopped and why.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var reason: String

    public init(_ reason: String, at location: SourceLocation) {
        self.reason = reason
        self.location = location
    }

    public var description: String { "\(location): \(reason)" }
}
