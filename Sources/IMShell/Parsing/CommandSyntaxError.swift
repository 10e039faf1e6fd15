/// A command line the shell cannot parse: a usage error, with what to write instead.
public struct CommandSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and, where it helps, what to do.
    public var message: String
    /// The 1-based line of the script it was found on, when known.
    public var line: Int?

    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }

    /// `line N: message`, or the message alone.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}
