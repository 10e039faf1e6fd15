/// Text that is not the JSON we accept, with where and why.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte offset at which parsing stopped.
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}
