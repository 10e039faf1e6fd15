/// Text that is not the JSON we accept, with where the parser stopped and why.
///
/// Syntax errors and the stricter checks of `JSONValue(parsing:)` (repeated member names,
/// numbers out of range) both come as this type, so callers handle one error.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var reason: String

    public init(_ reason: String, at location: SourceLocation) {
        self.reason = reason
        self.location = location
    }

    /// `LINE:COL: REASON`.
    public var description: String { "\(location): \(reason)" }
}
