/// A command line that cannot be run as given; executables exit with status 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One line saying what is wrong and, where it helps, what to do.
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }

    /// `words` as a message offers them to choose from: `a, b or c`.
    public static func choices(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.joined() }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
