/// A command line that cannot be run as given; executables exit with status 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line saying what is wrong and, where it helps, what to do.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
